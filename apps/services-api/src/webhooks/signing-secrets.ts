import { DynamicModule, Global, Module } from '@nestjs/common';
import { KeySet, SealingKeys } from '@platform/keyring';
import { randomBytes } from 'node:crypto';

/** The keys that seal endpoints' signing secrets at rest (WEBHOOK_SECRETS_KEY and WEBHOOK_SECRETS_KEY_PREVIOUS): `previous` still opens during a rotation. */
export type SigningSecretKeys = KeySet;

/** This purpose's HKDF salt and info: the values the secrets in PostgreSQL were sealed with. */
const PURPOSE = { salt: '', info: 'webhook endpoint signing secrets' };

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
  private readonly keys: SealingKeys;

  constructor(keys: SigningSecretKeys) {
    this.keys = new SealingKeys(keys, PURPOSE);
  }

  /** A new secret, in the form receivers' Standard Webhooks libraries take. */
  generate(): string {
    return `whsec_${randomBytes(32).toString('base64')}`;
  }

  seal(endpointID: string, secret: string): string {
    const { iv, ciphertext, tag } = this.keys.seal(secret, endpointID);
    return `v1.${iv.toString('base64url')}.${ciphertext.toString('base64url')}.${tag.toString('base64url')}`;
  }

  /** The plain secret, or undefined when no accepted key opens it (tampered, another endpoint's, or a retired key). */
  open(endpointID: string, sealed: string): string | undefined {
    const [, iv, ciphertext, tag] = SEALED.exec(sealed) ?? [];
    if (!iv) return undefined;
    const parts = { iv: Buffer.from(iv, 'base64url'), ciphertext: Buffer.from(ciphertext, 'base64url'), tag: Buffer.from(tag, 'base64url') };
    return this.keys.open(parts, endpointID)?.toString('utf8');
  }
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
