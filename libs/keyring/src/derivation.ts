import { createSecretKey, hkdfSync, KeyObject } from 'node:crypto';

/**
 * How a purpose's key is made from a configured secret. HKDF gives each
 * purpose its own key from one secret, so a value made for one purpose never
 * opens or verifies under another.
 */
export type KeyDerivation =
  /** HKDF-SHA256 over the secret's UTF-8 bytes with this salt and info (both UTF-8), 32 bytes. */
  | { hkdf: { salt: string; info: string } }
  /**
   * The secret's UTF-8 bytes themselves as the HMAC key: only for MACs whose
   * format predates the keyring (cache entries, transport messages), where a
   * derived key would stop replicas of an earlier release from verifying.
   * Such a secret must serve that one purpose.
   */
  | 'secret-bytes';

/**
 * The key of `secret` for a purpose, as a KeyObject made once: `createHmac`
 * and the ciphers given a Buffer key cost several times the operation itself
 * on every call (Node.js 24); given a KeyObject they do not.
 */
export function derivedKey(secret: string, derivation: KeyDerivation): KeyObject {
  const bytes = Buffer.from(secret, 'utf8');
  if (derivation === 'secret-bytes') return createSecretKey(bytes);
  const { salt, info } = derivation.hkdf;
  return createSecretKey(Buffer.from(hkdfSync('sha256', bytes, Buffer.from(salt, 'utf8'), Buffer.from(info, 'utf8'), 32)));
}
