import { describe, expect, it } from 'vitest';
import { OperatorTokenVerificationConfig } from './base.config';
import { ConfigurationError, loadConfig } from './load-config';
import { accessLogSettingsOf } from './access-log';
import { parseRateLimit } from './rate-limit';

const valid = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/platform',
  REDIS_URL: 'redis://127.0.0.1:6379',
  OPERATOR_JWKS_URL: 'http://127.0.0.1:3002/.well-known/jwks.json',
};

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(OperatorTokenVerificationConfig, env);
  } catch (error) {
    if (error instanceof ConfigurationError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('applies defaults and converts numbers', () => {
    const config = loadConfig(OperatorTokenVerificationConfig, { ...valid, DATABASE_POOL_SIZE: '7' });
    expect(config).toMatchObject({ DATABASE_POOL_SIZE: 7, LOG_LEVEL: 'info', HTTP_BODY_LIMIT_BYTES: 1_048_576, OPERATOR_JWT_AUDIENCE: 'platform-api' });
  });

  it('names a missing variable', () => {
    expect(problemsOf({ ...valid, DATABASE_URL: undefined })).toEqual([expect.stringMatching(/^DATABASE_URL is missing: must be a postgres:\/\/ URL/)]);
  });

  it('names each malformed variable', () => {
    const problems = problemsOf({ ...valid, REDIS_URL: 'localhost', DATABASE_POOL_SIZE: '12abc', LOG_LEVEL: 'loud' });
    expect(problems.map((problem) => problem.split(' ')[0]).sort()).toEqual(['DATABASE_POOL_SIZE', 'LOG_LEVEL', 'REDIS_URL']);
    expect(problems.every((problem) => problem.includes('is malformed'))).toBe(true);
  });

  it('reads the CORS allow-list as comma-separated origins, empty by default', () => {
    expect(loadConfig(OperatorTokenVerificationConfig, valid).CORS_ALLOWED_ORIGINS).toEqual([]);
    const config = loadConfig(OperatorTokenVerificationConfig, { ...valid, CORS_ALLOWED_ORIGINS: 'https://app.example.com, http://localhost:5173,http://[::1]:8080' });
    expect(config.CORS_ALLOWED_ORIGINS).toEqual(['https://app.example.com', 'http://localhost:5173', 'http://[::1]:8080']);
  });

  it.each(['*', 'app.example.com', 'https://app.example.com/', 'https://App.example.com', 'https://app.example.com/path', 'ftp://app.example.com'])(
    'refuses %s in the CORS allow-list: an origin is scheme, lower-case host and optional port',
    (origin) => {
      expect(problemsOf({ ...valid, CORS_ALLOWED_ORIGINS: `https://ok.example.com,${origin}` })).toEqual([expect.stringMatching(/^CORS_ALLOWED_ORIGINS is malformed: must be a comma-separated list of origins/)]);
    },
  );

  it('reads request budgets as <requests>/<seconds>s or off', () => {
    const config = loadConfig(OperatorTokenVerificationConfig, { ...valid, RATE_LIMIT_PRINCIPAL: '120/10s', RATE_LIMIT_TENANT: 'off' });
    expect(parseRateLimit(config.RATE_LIMIT_PRINCIPAL)).toEqual({ limit: 120, windowSeconds: 10 });
    expect(parseRateLimit(config.RATE_LIMIT_TENANT)).toBeUndefined();
  });

  it.each(['0/60s', '100', '100/60', '100/0s', '100/86401s', '-1/60s', 'OFF', '1e3/60s'])('refuses %s as a request budget', (budget) => {
    expect(problemsOf({ ...valid, RATE_LIMIT_TENANT: budget })).toEqual([expect.stringMatching(/^RATE_LIMIT_TENANT is malformed: must be <requests>\/<seconds>s/)]);
  });

  it('refuses production without its own CACHE_SECRET: the development value, or one shorter than 32 characters', () => {
    const production = { ...valid, NODE_ENV: 'production', TRANSPORT_NAMESPACE: 'production', REDIS_URL: 'redis://platform:Jk2mXq9vTz4wLp8s@127.0.0.1:6379' };
    expect(problemsOf(production)).toEqual([expect.stringMatching(/^CACHE_SECRET is refused in production: the development value/)]);
    expect(problemsOf({ ...production, CACHE_SECRET: 'Jk2mXq9vTz4wLp8s' })).toEqual([expect.stringMatching(/^CACHE_SECRET is refused in production: shorter than 32/)]);
    expect(problemsOf(valid)).toEqual([]);
  });

  it('needs a way to verify operator tokens', () => {
    expect(problemsOf({ ...valid, OPERATOR_JWKS_URL: undefined })).toEqual([expect.stringMatching(/^OPERATOR_JWKS_URL is missing/)]);
  });

  it('requires a transport namespace in production only, and refuses one that cannot be a channel prefix', () => {
    expect(problemsOf(valid)).toEqual([]);
    const redisWithPassword = { REDIS_URL: 'redis://platform:Jk2mXq9vTz4wLp8s@127.0.0.1:6379', CACHE_SECRET: 'Jk2mXq9vTz4wLp8sJk2mXq9vTz4wLp8s' };
    expect(problemsOf({ ...valid, ...redisWithPassword, NODE_ENV: 'production' })).toEqual([expect.stringMatching(/^TRANSPORT_NAMESPACE is missing/)]);
    expect(problemsOf({ ...valid, ...redisWithPassword, NODE_ENV: 'production', TRANSPORT_NAMESPACE: 'production' })).toEqual([]);
    expect(problemsOf({ ...valid, TRANSPORT_NAMESPACE: 'staging:*' })).toEqual([expect.stringMatching(/^TRANSPORT_NAMESPACE is malformed/)]);
  });

  it('refuses in production a Redis URL without a password, and takes one with an ACL user or the default user', () => {
    const production = { ...valid, NODE_ENV: 'production', TRANSPORT_NAMESPACE: 'production', CACHE_SECRET: 'Jk2mXq9vTz4wLp8sJk2mXq9vTz4wLp8s' };
    for (const REDIS_URL of ['redis://cache.internal:6379', 'rediss://services-api@cache.internal:6380/0']) {
      expect(problemsOf({ ...production, REDIS_URL }), REDIS_URL).toEqual([expect.stringMatching(/^REDIS_URL is malformed: must carry credentials in production/)]);
    }
    expect(problemsOf({ ...production, REDIS_URL: 'rediss://services-api:Jk2mXq9vTz4wLp8s@cache.internal:6380/0' })).toEqual([]);
    expect(problemsOf({ ...production, REDIS_URL: 'rediss://:Jk2mXq9vTz4wLp8s@cache.internal:6380/0' })).toEqual([]);
    expect(problemsOf({ ...valid, REDIS_URL: 'redis://127.0.0.1:6379' })).toEqual([]);
  });

  it('refuses a transport key shorter than 32 characters, and an age limit outside 500-60000 ms', () => {
    expect(problemsOf({ ...valid, TRANSPORT_SECRET: 'short', TRANSPORT_SECRET_ACCEPTED: 'x'.repeat(31), TRANSPORT_MAX_MESSAGE_AGE_MS: '100' }).map((problem) => problem.split(' ')[0]).sort()).toEqual([
      'TRANSPORT_MAX_MESSAGE_AGE_MS',
      'TRANSPORT_SECRET',
      'TRANSPORT_SECRET_ACCEPTED',
    ]);
  });

  it('reads ACCESS_LOG and ACCESS_LOG_SLOW_MS, logging every request by default outside production and a sample in it', () => {
    expect(accessLogSettingsOf(loadConfig(OperatorTokenVerificationConfig, valid))).toEqual({ mode: { kind: 'all' }, slowMs: 1000 });
    expect(accessLogSettingsOf({ NODE_ENV: 'production', ACCESS_LOG_SLOW_MS: 1000 })).toEqual({ mode: { kind: 'sample', fraction: 0.05 }, slowMs: 1000 });
    const read = (ACCESS_LOG: string) => accessLogSettingsOf(loadConfig(OperatorTokenVerificationConfig, { ...valid, ACCESS_LOG, ACCESS_LOG_SLOW_MS: '0' }));
    expect(read('errors')).toEqual({ mode: { kind: 'errors' }, slowMs: 0 });
    expect(read('sample:0')).toEqual({ mode: { kind: 'sample', fraction: 0 }, slowMs: 0 });
    expect(read('sample:0.25')).toEqual({ mode: { kind: 'sample', fraction: 0.25 }, slowMs: 0 });
    expect(read('sample:1')).toEqual({ mode: { kind: 'sample', fraction: 1 }, slowMs: 0 });
    for (const ACCESS_LOG of ['none', 'sample', 'sample:', 'sample:1.5', 'sample:-0.1', 'sample:.5', 'sample:0.1234567', 'ALL', 'sample:1e-3']) {
      expect(problemsOf({ ...valid, ACCESS_LOG }), ACCESS_LOG).toEqual([expect.stringMatching(/^ACCESS_LOG is malformed: must be all, errors or sample:<fraction 0-1>/)]);
    }
    expect(problemsOf({ ...valid, ACCESS_LOG_SLOW_MS: '-1' })).toEqual([expect.stringMatching(/^ACCESS_LOG_SLOW_MS is malformed: must be an integer 0-600000/)]);
  });
});
