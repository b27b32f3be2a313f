import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { ConfigurationError, loadConfig } from '@platform/config';
import { OutboundAllowList } from '@platform/http-outbound';
import { describe, expect, it } from 'vitest';
import { ServicesApiConfig } from './config';

const base = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/platform',
  REDIS_URL: 'redis://127.0.0.1:6379',
  OPERATOR_JWKS_URL: 'http://127.0.0.1:3002/.well-known/jwks.json',
};

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(ServicesApiConfig, env);
  } catch (error) {
    if (error instanceof ConfigurationError) return error.problems.map((problem) => problem.split(' ')[0]);
    throw error;
  }
  return [];
}

describe('services-api configuration', () => {
  it('defaults the template provider settings outside production', () => {
    expect(loadConfig(ServicesApiConfig, base)).toMatchObject({
      WHATSAPP_API_BASE_URL: 'https://graph.facebook.com',
      WHATSAPP_API_VERSION: 'v21.0',
      WHATSAPP_TIMEOUT_MS: 10_000,
      TEMPLATE_SUBMISSION_RETRY_SECONDS: 30,
      JOBS_POLLING_INTERVAL_MS: 2_000,
    });
  });

  it('requires the provider token, the app secret, the sign-up secret and the webhook secrets key in production, and refuses placeholders', () => {
    const production = { ...base, NODE_ENV: 'production', TRANSPORT_NAMESPACE: 'production', REDIS_URL: 'redis://services-api:Jk2mXq9vTz4wLp8s@127.0.0.1:6379', CACHE_SECRET: 'Pq4nWz8rKt2vXm6sPq4nWz8rKt2vXm6s' };
    expect(problemsOf(production).sort()).toEqual(['SIGN_UP_SECRET', 'WEBHOOK_SECRETS_KEY', 'WHATSAPP_ACCESS_TOKEN', 'WHATSAPP_APP_SECRET']);
    const signUp = { SIGN_UP_SECRET: 's'.repeat(32), WEBHOOK_SECRETS_KEY: 'Wk7rTq2mXz9pLs4vWk7rTq2mXz9pLs4v' };
    expect(problemsOf({ ...production, ...signUp, WHATSAPP_ACCESS_TOKEN: 'change-me', WHATSAPP_APP_SECRET: 'short' }).sort()).toEqual([
      'WHATSAPP_ACCESS_TOKEN',
      'WHATSAPP_APP_SECRET',
    ]);
    expect(problemsOf({ ...production, ...signUp, WHATSAPP_ACCESS_TOKEN: 'EAAGm0PX4ZCpsBAKZB3xZA9pQ', WHATSAPP_APP_SECRET: 'a'.repeat(32) })).toEqual([]);
  });

  it('names malformed provider settings', () => {
    expect(problemsOf({ ...base, WHATSAPP_API_BASE_URL: 'graph.facebook.com', WHATSAPP_API_VERSION: '21', JOBS_POLLING_INTERVAL_MS: '10' }).sort()).toEqual([
      'JOBS_POLLING_INTERVAL_MS',
      'WHATSAPP_API_BASE_URL',
      'WHATSAPP_API_VERSION',
    ]);
  });

  it('reaches public addresses only by default, and names a malformed outbound allow-list', () => {
    expect(loadConfig(ServicesApiConfig, base)).toMatchObject({ OUTBOUND_ALLOW: '', OUTBOUND_DNS_SERVERS: '' });
    expect(problemsOf({ ...base, OUTBOUND_ALLOW: '127.0.0.1:4015,[::1]:4016,10.0.0.0/8,traces.internal:443' })).toEqual([]);
    expect(problemsOf({ ...base, OUTBOUND_ALLOW: '127.0.0.1:4015,10.0.0.0/33', OUTBOUND_DNS_SERVERS: 'a, b' }).sort()).toEqual(['OUTBOUND_ALLOW', 'OUTBOUND_DNS_SERVERS']);
  });

  it('lets the quick start reach its demo trace providers on loopback: .env.example allow-lists exactly their ports', () => {
    const example = parseEnv(readFileSync(resolve(__dirname, '../../../.env.example'), 'utf8'));
    const allowList = OutboundAllowList.parse(loadConfig(ServicesApiConfig, { ...base, ...example }).OUTBOUND_ALLOW);
    for (const variable of ['TRACE_SANDBOX_INTENT_URL', 'TRACE_SANDBOX_CRM_URL']) {
      const url = new URL(example[variable]!);
      expect(allowList.allowsAddress(url.hostname, Number(url.port)), variable).toBe(true);
      expect(allowList.allowsAddress(url.hostname, Number(url.port) + 100), variable).toBe(false);
    }
  });
});
