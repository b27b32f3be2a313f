import { KeySet, MacKeys, SealingKeys } from '@platform/keyring';
import { randomInt } from 'node:crypto';

/** A six-digit code, uniformly drawn from a CSPRNG (leading zeros kept). */
export function generateVerificationCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/** Each purpose's HKDF salt and info: the values codes in Redis and mail jobs in PostgreSQL were made with. */
const CODE_HASH = { salt: 'sign-up', info: 'verification-code-hash' };
const MAIL_JOB_SEAL = { salt: 'sign-up', info: 'mail-job-seal' };

/** The position of a sealed value's parts: `base64url(iv ‖ tag ‖ ciphertext)`. */
const IV_END = 12;
const TAG_END = 28;

/**
 * The two keys sign-up derives from SIGN_UP_SECRET (HKDF, one per purpose,
 * libs/keyring): the keyed hash under which verification codes are stored,
 * and the AES-256-GCM key that seals secrets (codes, invitation tokens)
 * inside durable mail jobs, so neither is ever stored in clear. During a
 * rotation, SIGN_UP_SECRET_PREVIOUS still verifies codes and opens jobs
 * made under it (docs/security.md, Keys and rotation).
 */
export class SignUpKeys {
  private readonly hashKeys: MacKeys;
  private readonly sealKeys: SealingKeys;

  /** A single secret is a key set without previous keys. */
  constructor(keys: string | KeySet) {
    const keySet = typeof keys === 'string' ? { current: keys } : keys;
    this.hashKeys = new MacKeys(keySet, { hkdf: CODE_HASH });
    this.sealKeys = new SealingKeys(keySet, MAIL_JOB_SEAL);
  }

  /** HMAC-SHA256 of the code bound to its address, under the current key: a code is only ever valid for the address it was mailed to. */
  codeHash(normalisedEmail: string, code: string): string {
    return this.hashKeys.sign(codeText(normalisedEmail, code)).toString('hex');
  }

  /** The code's hash under every key, current first: a code stored under the previous key still matches one of them. */
  codeHashes(normalisedEmail: string, code: string): string[] {
    return this.hashKeys.macsUnderEveryKey(codeText(normalisedEmail, code)).map((mac) => mac.toString('hex'));
  }

  seal(plaintext: string): string {
    const { iv, tag, ciphertext } = this.sealKeys.seal(plaintext);
    return Buffer.concat([iv, tag, ciphertext]).toString('base64url');
  }

  /** The sealed text; throws when no key opens it (tampered, or sealed under a key no longer configured): the mail job fails. */
  unseal(sealed: string): string {
    const bytes = Buffer.from(sealed, 'base64url');
    const opened = this.sealKeys.open({ iv: bytes.subarray(0, IV_END), tag: bytes.subarray(IV_END, TAG_END), ciphertext: bytes.subarray(TAG_END) });
    if (!opened) throw new Error('A sealed sign-up value that no configured SIGN_UP_SECRET opens');
    return opened.toString('utf8');
  }
}

function codeText(normalisedEmail: string, code: string): string {
  return `${normalisedEmail}\n${code}`;
}
