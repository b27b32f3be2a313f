import bcrypt from 'bcryptjs';

/**
 * bcrypt, cost 11 (about 0.1 s per hash here). bcryptjs rather than argon2:
 * it is plain JavaScript, so no native binary has to match the Node version
 * or be compiled at install time. Passwords are capped at 72 bytes by bcrypt;
 * the sign-up policy keeps them within that.
 */
const COST = 11;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

let decoyHash: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. With no stored hash (unknown
 * account) it checks against a decoy hash of the same cost, so the answer
 * takes the same time whether or not the account exists.
 */
export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  decoyHash ??= bcrypt.hash('decoy password for unknown accounts', COST);
  const hash = storedHash ?? (await decoyHash);
  const matches = await bcrypt.compare(password, hash).catch(() => false);
  return storedHash !== undefined && matches;
}
