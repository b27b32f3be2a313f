import { randomBytes } from 'node:crypto';
import { generateTestSigningKey } from '@platform/testing';
import type { PlatformApp } from './app-configurations';

export type ProductionApp = PlatformApp;

/** A random secret as a secret manager would hold it. */
const realSecret = (prefix = '') => `${prefix}${randomBytes(24).toString('base64url')}`;

/**
 * An environment each app accepts with NODE_ENV=production: every secret a
 * random value, nothing from an example. Tests put one placeholder in it and
 * expect the app to refuse that variable alone.
 */
export function productionEnvironment(app: ProductionApp): Record<string, string> {
  const key = generateTestSigningKey();
  const common = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATABASE_URL: `postgres://platform:${realSecret()}@db.internal:5432/platform?sslmode=verify-full`,
    REDIS_URL: `rediss://:${realSecret()}@cache.internal:6380/0`,
    TRANSPORT_NAMESPACE: 'production',
    CACHE_SECRET: realSecret(),
  };
  switch (app) {
    case 'core-tenants':
      return {
        ...common,
        OPERATOR_JWT_PRIVATE_KEY: key.privateKeyPem,
        TRANSPORT_SECRET: realSecret(),
        BILLING_API_URL: 'https://api.stripe.com',
        BILLING_API_KEY: realSecret('sk_live_'),
        VM_PROVIDER_URL: 'https://vms.provider.internal',
        VM_PROVIDER_TOKEN: realSecret(),
      };
    case 'services-api':
      return {
        ...common,
        OPERATOR_JWT_PUBLIC_KEY: key.publicKeyPem,
        SMTP_URL: `smtps://no-reply:${realSecret()}@smtp.mail.internal:465`,
        SIGN_UP_SECRET: realSecret(),
        WEBHOOK_SECRETS_KEY: realSecret(),
        TRANSPORT_SECRET: realSecret(),
        WHATSAPP_ACCESS_TOKEN: realSecret('EAAG'),
        WHATSAPP_APP_SECRET: realSecret(),
        WHATSAPP_WEBHOOK_VERIFY_TOKEN: realSecret(),
      };
    case 'plugins-helpdesk':
      return {
        ...common,
        OPERATOR_JWT_PUBLIC_KEY: key.publicKeyPem,
        CLOUDFLARE_API_TOKEN: realSecret(),
        CLOUDFLARE_ZONE_ID: randomBytes(16).toString('hex'),
      };
  }
}
