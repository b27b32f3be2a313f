import { loadConfig } from '@platform/config';
import { AppException } from '@platform/errors';
import { OutboundAllowList } from '@platform/http-outbound';
import { describe, expect, it } from 'vitest';
import { ServicesApiConfig } from '../../config';
import { webhookEndpointsSettingsOf } from './webhook-endpoints-settings';
import {
  isWellFormedWebhookUrl,
  MAX_WEBHOOK_URL_LENGTH,
  refuseUnallowedDestination,
  WEBHOOK_URL_HTTPS_ONLY,
  WEBHOOK_URL_PUBLIC_ADDRESS,
  webhookUrlRefusal,
} from './webhook-url';

const anywhere = { allowList: OutboundAllowList.empty, httpsOnly: false };
const production = { allowList: OutboundAllowList.empty, httpsOnly: true };

/** What a production deployment of services-api is started with (config.spec.ts holds the same). */
const PRODUCTION_ENV = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/platform',
  REDIS_URL: 'redis://services-api:Jk2mXq9vTz4wLp8s@127.0.0.1:6379',
  OPERATOR_JWKS_URL: 'http://127.0.0.1:3002/.well-known/jwks.json',
  NODE_ENV: 'production',
  TRANSPORT_NAMESPACE: 'production',
  CACHE_SECRET: 'Pq4nWz8rKt2vXm6sPq4nWz8rKt2vXm6s',
  SIGN_UP_SECRET: 's'.repeat(32),
  WEBHOOK_SECRETS_KEY: 'Wk7rTq2mXz9pLs4vWk7rTq2mXz9pLs4v',
  WHATSAPP_ACCESS_TOKEN: 'EAAGm0PX4ZCpsBAKZB3xZA9pQ',
  WHATSAPP_APP_SECRET: 'a'.repeat(32),
};

describe('webhook endpoint URLs', () => {
  describe('the shape, the same everywhere (400 1002 from the request validation)', () => {
    it('takes absolute http and https URLs, with a port, path and query', () => {
      for (const url of ['https://hooks.example.com', 'http://hooks.example.com:8080/in?tenant=a', 'https://[2001:4860:4860::8888]/hooks']) {
        expect(isWellFormedWebhookUrl(url), url).toBe(true);
      }
    });

    it('refuses other schemes, relative URLs, credentials, non-strings and URLs past the length bound', () => {
      const refused = [
        'ftp://hooks.example.com/',
        'javascript:alert(1)',
        'file:///etc/passwd',
        '/hooks',
        'hooks.example.com',
        'https://user:pass@hooks.example.com/',
        'https://token@hooks.example.com/',
        `https://hooks.example.com/${'a'.repeat(MAX_WEBHOOK_URL_LENGTH)}`,
        42,
        null,
      ];
      for (const url of refused) expect(isWellFormedWebhookUrl(url), String(url)).toBe(false);
      const longest = `https://hooks.example.com/${'a'.repeat(MAX_WEBHOOK_URL_LENGTH - 'https://hooks.example.com/'.length)}`;
      expect(isWellFormedWebhookUrl(longest)).toBe(true);
    });
  });

  describe('the destination, by the outbound policy', () => {
    it('refuses a literal address that is not public, in any spelling the URL parser accepts', () => {
      const refused = [
        'http://127.0.0.1/',
        'http://2130706433/',
        'http://0x7f.1/',
        'https://10.1.2.3/',
        'https://169.254.169.254/latest/meta-data',
        'https://[::1]/',
        'https://[::ffff:127.0.0.1]/',
        'https://[fd00::1]/',
        'https://100.64.0.1/',
        'https://0.0.0.0/',
      ];
      for (const url of refused) expect(webhookUrlRefusal(url, anywhere), url).toBe(WEBHOOK_URL_PUBLIC_ADDRESS);
    });

    it('refuses localhost by name, and takes other host names as they are: delivery checks what they resolve to', () => {
      expect(webhookUrlRefusal('http://localhost:8080/', anywhere)).toBe(WEBHOOK_URL_PUBLIC_ADDRESS);
      expect(webhookUrlRefusal('http://api.LOCALHOST./', anywhere)).toBe(WEBHOOK_URL_PUBLIC_ADDRESS);
      expect(webhookUrlRefusal('https://hooks.example.com/', anywhere)).toBeUndefined();
      expect(webhookUrlRefusal('https://8.8.8.8/', anywhere)).toBeUndefined();
    });

    it('takes what OUTBOUND_ALLOW allows, on its port only when it names one', () => {
      const allowed = { allowList: OutboundAllowList.parse('10.0.0.0/8:8443,localhost'), httpsOnly: false };
      expect(webhookUrlRefusal('https://10.1.2.3:8443/', allowed)).toBeUndefined();
      expect(webhookUrlRefusal('https://10.1.2.3/', allowed)).toBe(WEBHOOK_URL_PUBLIC_ADDRESS);
      expect(webhookUrlRefusal('http://localhost:4000/', allowed)).toBeUndefined();
    });

    it('refuses plain http when https only (production), allow-listed destinations included', () => {
      expect(webhookUrlRefusal('http://hooks.example.com/', production)).toBe(WEBHOOK_URL_HTTPS_ONLY);
      expect(webhookUrlRefusal('http://10.1.2.3/', { allowList: OutboundAllowList.parse('10.0.0.0/8'), httpsOnly: true })).toBe(WEBHOOK_URL_HTTPS_ONLY);
      expect(webhookUrlRefusal('https://hooks.example.com/', production)).toBeUndefined();
    });

    it('answers a refusal as 400 1002 naming url, with the rule as allowed', () => {
      const thrown = (() => {
        try {
          refuseUnallowedDestination('https://10.1.2.3/', anywhere);
        } catch (error) {
          return error;
        }
      })();
      expect(thrown).toBeInstanceOf(AppException);
      expect(thrown).toMatchObject({ key: 'RequestValidation', fields: [{ field: 'url', received: 'https://10.1.2.3/', allowed: WEBHOOK_URL_PUBLIC_ADDRESS }] });
    });
  });

  describe('as services-api is configured', () => {
    it('is https only with NODE_ENV=production, and takes http otherwise', () => {
      const inProduction = webhookEndpointsSettingsOf(loadConfig(ServicesApiConfig, PRODUCTION_ENV));
      expect(() => refuseUnallowedDestination('http://hooks.example.com/', inProduction.destinations)).toThrow(AppException);
      expect(() => refuseUnallowedDestination('https://hooks.example.com/', inProduction.destinations)).not.toThrow();

      const inDevelopment = webhookEndpointsSettingsOf(loadConfig(ServicesApiConfig, { ...PRODUCTION_ENV, NODE_ENV: 'development' }));
      expect(() => refuseUnallowedDestination('http://hooks.example.com/', inDevelopment.destinations)).not.toThrow();
    });

    it('defaults to 10 endpoints per tenant and a 24-hour grace after a rotation', () => {
      expect(webhookEndpointsSettingsOf(loadConfig(ServicesApiConfig, { ...PRODUCTION_ENV, NODE_ENV: 'development' }))).toMatchObject({
        endpointsPerTenant: 10,
        rotationGraceHours: 24,
      });
    });
  });
});
