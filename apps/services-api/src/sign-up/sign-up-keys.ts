import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomInt } from 'node:crypto';

/** A six-digit code, uniformly drawn from a CSPRNG (leading zeros kept). */
export function generateVerificationCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/**
 * The two keys sign-up derives from SIGN_UP_SECRET (HKDF, one per purpose):
 * the keyed hash under which verification codes are stored, and the
 * AES-256-GCM key that seals secrets (codes, invitation tokens) inside
 * durable mail jobs, so neither is ever stored in clear.
 */
export class SignUpKeys {
  private readonly hashKey: Buffer;
  private readonly sealKey: Buffer;

  constructor(secret: string) {
    this.hashKey = Buffer.from(hkdfSync('sha256', secret, 'sign-up', 'verification-code-hash', 32));
    this.sealKey = Buffer.from(hkdfSync('sha256', secret, 'sign-up', 'mail-job-seal', 32));
  }

  /** HMAC-SHA256 of the code bound to its address: a code is only ever valid for the address it was mailed to. */
  codeHash(normalisedEmail: string, code: string): string {
    return createHmac('sha256', this.hashKey).update(`${normalisedEmail}\n${code}`).digest('hex');
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  }

  unseal(sealed: string): string {
    const bytes = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.sealKey, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  }
}
