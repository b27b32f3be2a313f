import { IsOptional, IsString, Matches } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { BaseConfig } from './base.config';
import { ConfigurationError, loadConfig } from './load-config';
import { placeholderReason, Secret, secretVariablesOf } from './secret';

class ProviderConfig extends BaseConfig {
  @Secret()
  @IsString({ message: 'must be the API key' })
  API_KEY!: string;

  @IsOptional()
  @Secret({ minLength: 32 })
  @IsString({ message: 'must be a string' })
  SIGNING_SECRET?: string;

  @IsOptional()
  @Secret({ minLength: 0 })
  @Matches(/^smtps?:\/\/\S+$/, { message: 'must be an smtp:// URL' })
  MAIL_URL?: string;
}

const REAL_KEY = 'rk_live_51Hx9qLmN2pQ7vW3zY8tK4jD';
const base = {
  DATABASE_URL: 'postgres://app:Xq7-2mPz@db.internal:5432/platform',
  REDIS_URL: 'redis://platform:Xq7-2mPz9vTz4wLp@cache.internal:6379/0',
  TRANSPORT_NAMESPACE: 'production',
  CACHE_SECRET: 'Pq4nWz8rKt2vXm6sPq4nWz8rKt2vXm6s',
  API_KEY: REAL_KEY,
};

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(ProviderConfig, env);
  } catch (error) {
    if (error instanceof ConfigurationError) return error.problems;
    throw error;
  }
  return [];
}

describe('secrets in production', () => {
  it.each([
    ['change-me', 'a placeholder ("change-me")'],
    ['CHANGE-ME', 'a placeholder ("change-me")'],
    ['Change_Me-please-0000000000', 'a placeholder ("change-me")'],
    ['sandbox-system-user-token', 'a sandbox value'],
    ['sk_test_51Hx9qLmN2pQ7vW3zY8tK', 'a test-mode key'],
    ['test-cloudflare-token-long-enough', 'a test value'],
    ['subscribe-token-0123456789', 'a test value'],
    ['development-only sign-up secret, never used in production', 'the development value'],
    ['   ', 'empty'],
    ['vm-short-token', 'shorter than 16 characters'],
  ])('refuses %j: %s', (value, reason) => {
    expect(placeholderReason(value)).toBe(reason);
  });

  it('accepts a random value of the minimum length', () => {
    expect(placeholderReason(REAL_KEY)).toBeUndefined();
    expect(placeholderReason('Jk2mXq9vTz4wLp8s')).toBeUndefined();
    expect(placeholderReason('Jk2mXq9vTz4wLp8s', { minLength: 17 })).toBe('shorter than 17 characters');
  });

  it('stops the app in production, naming each refused variable and never showing its value', () => {
    const problems = problemsOf({ ...base, NODE_ENV: 'production', API_KEY: 'change-me', SIGNING_SECRET: 'x'.repeat(31), MAIL_URL: 'smtp://user:CHANGE-ME@mail.internal:587' });
    expect(problems).toEqual([
      'API_KEY is refused in production: a placeholder ("change-me"); set the real secret',
      'SIGNING_SECRET is refused in production: shorter than 32 characters; set the real secret',
      'MAIL_URL is refused in production: a placeholder ("change-me"); set the real secret',
    ]);
    expect(problems.join('\n')).not.toMatch(/x{31}|CHANGE-ME/);
  });

  it('accepts real secrets in production, and leaves unset optional ones to their own validation', () => {
    expect(problemsOf({ ...base, NODE_ENV: 'production' })).toEqual([]);
    expect(problemsOf({ ...base, NODE_ENV: 'production', SIGNING_SECRET: 'Jk2mXq9vTz4wLp8sJk2mXq9vTz4wLp8s', MAIL_URL: 'smtps://no-reply:Xq7-2mPz@smtp.acme.com.br:465' })).toEqual([]);
  });

  it('names a malformed secret once, by its own validation', () => {
    expect(problemsOf({ ...base, NODE_ENV: 'production', MAIL_URL: 'change-me' })).toEqual([expect.stringMatching(/^MAIL_URL is malformed: must be an smtp:\/\/ URL$/)]);
  });

  it('does not check secrets outside production, where the sandbox and test values belong', () => {
    for (const NODE_ENV of ['development', 'test']) expect(problemsOf({ ...base, NODE_ENV, API_KEY: 'sk_test_sandbox', SIGNING_SECRET: 'change-me' })).toEqual([]);
  });

  it('applies to the variables of the base class too (URLs that carry credentials)', () => {
    expect(secretVariablesOf(ProviderConfig).sort()).toEqual(['API_KEY', 'CACHE_SECRET', 'CACHE_SECRET_PREVIOUS', 'DATABASE_URL', 'MAIL_URL', 'REDIS_URL', 'SIGNING_SECRET', 'TRANSPORT_SECRET', 'TRANSPORT_SECRET_ACCEPTED']);
    expect(problemsOf({ ...base, NODE_ENV: 'production', DATABASE_URL: 'postgres://app:change-me@db.internal:5432/platform' })).toEqual([
      expect.stringMatching(/^DATABASE_URL is refused in production/),
    ]);
  });
});
