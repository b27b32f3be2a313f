import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new plugin or connection token: 256 random bits, base64url. */
export function generateSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * SHA-256 (hex) of a token. Right for random 256-bit tokens: they cannot be
 * guessed, so a slow password hash would add cost and no safety.
 */
export function hashSecretToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Compares a presented token with a stored hash in constant time. */
export function secretTokenMatches(presented: string, storedHash: string): boolean {
  const presentedHash = Buffer.from(hashSecretToken(presented), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presentedHash.length && timingSafeEqual(presentedHash, stored);
}

/** The value a client puts after `Plugin ` or `PluginConnection `. */
export function encodeIdAndSecret(id: string, secret: string): string {
  return Buffer.from(`${id}:${secret}`, 'utf8').toString('base64');
}
