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

  it('needs a way to verify operator tokens', () => {
    expect(problemsOf({ ...valid, OPERATOR_JWKS_URL: undefined })).toEqual([expect.stringMatching(/^OPERATOR_JWKS_URL is missing/)]);
  });

  it('requires a transport namespace in production only, and refuses one that cannot be a channel prefix', () => {
    expect(problemsOf(valid)).toEqual([]);
    expect(problemsOf({ ...valid, NODE_ENV: 'production' })).toEqual([expect.stringMatching(/^TRANSPORT_NAMESPACE is missing/)]);
    expect(problemsOf({ ...valid, NODE_ENV: 'production', TRANSPORT_NAMESPACE: 'production' })).toEqual([]);
    expect(problemsOf({ ...valid, TRANSPORT_NAMESPACE: 'staging:*' })).toEqual([expect.stringMatching(/^TRANSPORT_NAMESPACE is malformed/)]);
  });
});
