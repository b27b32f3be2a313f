import { createCipheriv, createDecipheriv, KeyObject, randomBytes } from 'node:crypto';
import { derivedKey } from './derivation';
import { KeySet, keysInTrialOrder } from './key-set';

/** AES-256-GCM's parts: a 96-bit random IV, the ciphertext and the 128-bit tag. How they are written is the caller's format. */
export interface SealedParts {
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM under a key set, each key derived by HKDF for one purpose:
 * seals with the current key, opens with any key of the set
 * (docs/security.md, Keys and rotation). Associated data, when given, binds
 * a sealed value to its place (an endpoint's id): it opens there only.
 */
export class SealingKeys {
  private readonly keys: KeyObject[];

  constructor(keys: KeySet, purpose: { salt: string; info: string }) {
    this.keys = keysInTrialOrder(keys).map((secret) => derivedKey(secret, { hkdf: purpose }));
  }

  seal(plaintext: string | Buffer, associatedData?: string): SealedParts {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys[0], iv, { authTagLength: TAG_BYTES });
    if (associatedData !== undefined) cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ciphertext = Buffer.concat([typeof plaintext === 'string' ? cipher.update(plaintext, 'utf8') : cipher.update(plaintext), cipher.final()]);
    return { iv, ciphertext, tag: cipher.getAuthTag() };
  }

  /**
   * The plaintext, or undefined when no key of the set opens it: tampered,
   * sealed for another purpose or place, under a retired key, or with an IV
   * or tag of the wrong length (a shortened tag is never accepted).
   */
  open(sealed: SealedParts, associatedData?: string): Buffer | undefined {
    if (sealed.iv.length !== IV_BYTES || sealed.tag.length !== TAG_BYTES) return undefined;
    for (const key of this.keys) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv, { authTagLength: TAG_BYTES });
        if (associatedData !== undefined) decipher.setAAD(Buffer.from(associatedData, 'utf8'));
        decipher.setAuthTag(sealed.tag);
        return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
      } catch {
        // Not sealed under this key (GCM's tag check failed): try the next one.
      }
    }
    return undefined;
  }
}
