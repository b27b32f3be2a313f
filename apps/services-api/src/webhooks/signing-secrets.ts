import { DynamicModule, Global, Module } from '@nestjs/common';
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** The keys that seal endpoints' signing secrets at rest: `previous` still opens during a rotation. */
export interface SigningSecretKeys {
  current: string;
  previous?: string;
}

const SEALED = /^v1\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{22})$/;

/**
 * Signing secrets of webhook endpoints: made here, shown to the owner once,
 * and stored sealed (AES-256-GCM under WEBHOOK_SECRETS_KEY), so a copy of the
 * database or a backup does not let its reader forge deliveries. Signing
 * needs the plain secret (Standard Webhooks signs with HMAC-SHA256), which is
 * why this is encryption and not a hash.
 *
 * A secret is `whsec_` and 32 random bytes in base64, the form the Standard
 * Webhooks libraries take. A sealed value is `v1.<iv>.<ciphertext>.<tag>`,
 * bound to the endpoint's id (additional data), so a sealed secret copied to
 * another endpoint's row does not open.
 */
export class WebhookSigningSecrets {
  private readonly keys: Buffer[];

  constructor(keys: SigningSecretKeys) {
    this.keys = [keys.current, keys.previous].filter((key): key is string => Boolean(key)).map(derivedKey);
    if (this.keys.length === 0) throw new Error('WebhookSigningSecrets needs a key');
  }

  /** A new secret, in the form receivers' Standard Webhooks libraries take. */
  generate(): string {
    return `whsec_${randomBytes(32).toString('base64')}`;
  }

  seal(endpointID: string, secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys[0], iv).setAAD(Buffer.from(endpointID, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `v1.${iv.toString('base64url')}.${ciphertext.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
  }

  /** The plain secret, or undefined when no accepted key opens it (tampered, another endpoint's, or a retired key). */
  open(endpointID: string, sealed: string): string | undefined {
    const [, iv, ciphertext, tag] = SEALED.exec(sealed) ?? [];
    if (!iv) return undefined;
    for (const key of this.keys) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
          .setAAD(Buffer.from(endpointID, 'utf8'))
          .setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        // Not sealed under this key: try the next accepted one.
      }
    }
    return undefined;
  }
}

/** A 256-bit key from the configured secret, whatever its length, for this one purpose. */
function derivedKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), 'webhook endpoint signing secrets', 32));
}

/** Provides the one WebhookSigningSecrets of the app, to the endpoints' use cases and to the delivery engine. */
@Global()
@Module({})
export class WebhookSigningSecretsModule {
  static forRoot(keys: SigningSecretKeys): DynamicModule {
    return {
      module: WebhookSigningSecretsModule,
      providers: [{ provide: WebhookSigningSecrets, useValue: new WebhookSigningSecrets(keys) }],
      exports: [WebhookSigningSecrets],
    };
  }
}
