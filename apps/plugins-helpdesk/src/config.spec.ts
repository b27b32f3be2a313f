import { ConfigurationError, loadConfig } from '@platform/config';
import { describe, expect, it } from 'vitest';
import { PluginsHelpdeskConfig } from './config';

const BASE = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/platform',
  // With a password: production refuses a Redis URL without one.
  REDIS_URL: 'redis://plugins-helpdesk:Jk2mXq9vTz4wLp8s@127.0.0.1:6379/0',
  OPERATOR_JWKS_URL: 'http://127.0.0.1:3002/.well-known/jwks.json',
  CACHE_SECRET: 'Pq4nWz8rKt2vXm6sPq4nWz8rKt2vXm6s',
};

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(PluginsHelpdeskConfig, env);
    return [];
  } catch (error) {
    return (error as ConfigurationError).problems;
  }
};

describe('PluginsHelpdeskConfig', () => {
  it('needs no provider credentials outside production (the sandbox answers)', () => {
    const config = loadConfig(PluginsHelpdeskConfig, BASE);
    expect(config).toMatchObject({ HELPDESK_PLUGIN_URN: 'urn:plugin:helpdesk', CLOUDFLARE_TIMEOUT_MS: 5000, CLOUDFLARE_MAX_RETRIES: 1 });
    expect(config.CLOUDFLARE_API_TOKEN).toBeUndefined();
  });

  it('requires a real token and zone in production, naming both', () => {
    expect(problemsOf({ ...BASE, NODE_ENV: 'production', TRANSPORT_NAMESPACE: 'production' })).toEqual([
      expect.stringMatching(/^CLOUDFLARE_API_TOKEN is missing/),
      expect.stringMatching(/^CLOUDFLARE_ZONE_ID is missing/),
    ]);
    expect(problemsOf({ ...BASE, NODE_ENV: 'production', TRANSPORT_NAMESPACE: 'production', CLOUDFLARE_API_TOKEN: 'change-me', CLOUDFLARE_ZONE_ID: 'change-me' })).toHaveLength(2);
    expect(problemsOf({ ...BASE, NODE_ENV: 'production', TRANSPORT_NAMESPACE: 'production', CLOUDFLARE_API_TOKEN: 'x'.repeat(40), CLOUDFLARE_ZONE_ID: '023e105f4ecef8ad9ca31a8372d0c353' })).toEqual([]);
  });

  it('refuses a malformed base URL or CNAME target', () => {
    expect(problemsOf({ ...BASE, CLOUDFLARE_BASE_URL: 'api.cloudflare.com', HELPDESK_CNAME_TARGET: 'Not A Host' })).toEqual([
      expect.stringMatching(/^HELPDESK_CNAME_TARGET is malformed/),
      expect.stringMatching(/^CLOUDFLARE_BASE_URL is malformed/),
    ]);
  });
});
