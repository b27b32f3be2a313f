import * as argon2 from 'argon2';

/** argon2id with the library's defaults (m=64 MiB, t=3, p=4): OWASP's recommended family. */
const OPTIONS = { type: argon2.argon2id } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

let decoyHash: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. With no stored hash (unknown
 * account) it checks against a decoy hash of the same cost, so the answer
 * takes the same time whether or not the account exists.
 */
export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  decoyHash ??= argon2.hash('decoy password for unknown accounts', OPTIONS);
  const hash = storedHash ?? (await decoyHash);
  const matches = await argon2.verify(hash, password).catch(() => false);
  return storedHash !== undefined && matches;
}
