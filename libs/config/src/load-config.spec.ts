import { describe, expect, it } from 'vitest';
import { OperatorTokenVerificationConfig } from './base.config';
import { ConfigurationError, loadConfig } from './load-config';

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

  it('refuses production without its own CACHE_SECRET: the development value, or one shorter than 32 characters', () => {
    const production = { ...valid, NODE_ENV: 'production', TRANSPORT_NAMESPACE: 'production' };
    expect(problemsOf(production)).toEqual([expect.stringMatching(/^CACHE_SECRET is refused in production: the development value/)]);
    expect(problemsOf({ ...production, CACHE_SECRET: 'Jk2mXq9vTz4wLp8s' })).toEqual([expect.stringMatching(/^CACHE_SECRET is refused in production: shorter than 32/)]);
    expect(problemsOf(valid)).toEqual([]);
  });

  it('needs a way to verify operator tokens', () => {
    expect(problemsOf({ ...valid, OPERATOR_JWKS_URL: undefined })).toEqual([expect.stringMatching(/^OPERATOR_JWKS_URL is missing/)]);
  });

  it('requires a transport namespace in production only, and refuses one that cannot be a channel prefix', () => {
    expect(problemsOf(valid)).toEqual([]);
    const cacheSecret = 'Jk2mXq9vTz4wLp8sJk2mXq9vTz4wLp8s';
    expect(problemsOf({ ...valid, NODE_ENV: 'production', CACHE_SECRET: cacheSecret })).toEqual([expect.stringMatching(/^TRANSPORT_NAMESPACE is missing/)]);
    expect(problemsOf({ ...valid, NODE_ENV: 'production', TRANSPORT_NAMESPACE: 'production', CACHE_SECRET: cacheSecret })).toEqual([]);
    expect(problemsOf({ ...valid, TRANSPORT_NAMESPACE: 'staging:*' })).toEqual([expect.stringMatching(/^TRANSPORT_NAMESPACE is malformed/)]);
  });
});
