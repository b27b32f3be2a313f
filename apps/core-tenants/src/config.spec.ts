import { ConfigurationError, loadConfig } from '@platform/config';
import { describe, expect, it } from 'vitest';
import { CoreTenantsConfig } from './config';

const required = {
  NODE_ENV: 'test',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/platform',
  REDIS_URL: 'redis://127.0.0.1:6379/0',
  BILLING_API_URL: 'http://127.0.0.1:12111',
  BILLING_API_KEY: 'sk_test_config',
  VM_PROVIDER_URL: 'http://127.0.0.1:12112',
  VM_PROVIDER_TOKEN: 'vm-config-token',
};

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(CoreTenantsConfig, { ...required, ...env });
    return [];
  } catch (error) {
    if (error instanceof ConfigurationError) return error.problems;
    throw error;
  }
};

const BUDGET_PROBLEM =
  'CORE_TENANTS_RPC_TIMEOUT_MS is malformed: must be greater than max(BILLING_TIMEOUT_MS, VM_PROVIDER_TIMEOUT_MS) + INSTALL_DATABASE_BUDGET_MS';

describe('core-tenants configuration: an install fits in the transport timeout', () => {
  it('boots with the defaults (5000 > max(3000, 3000) + 1000)', () => {
    expect(problemsOf({})).toEqual([]);
  });

  it('refuses a billing timeout that, with the database budget, reaches the transport timeout', () => {
    expect(problemsOf({ BILLING_TIMEOUT_MS: '5000' })).toEqual([BUDGET_PROBLEM]);
    expect(problemsOf({ BILLING_TIMEOUT_MS: '4000' })).toEqual([BUDGET_PROBLEM]);
    expect(problemsOf({ BILLING_TIMEOUT_MS: '3999' })).toEqual([]);
  });

  it('refuses a VM provider timeout or a database budget that does not fit', () => {
    expect(problemsOf({ VM_PROVIDER_TIMEOUT_MS: '4500' })).toEqual([BUDGET_PROBLEM]);
    expect(problemsOf({ INSTALL_DATABASE_BUDGET_MS: '2000' })).toEqual([BUDGET_PROBLEM]);
  });

  it('refuses a transport timeout shorter than the providers', () => {
    expect(problemsOf({ CORE_TENANTS_RPC_TIMEOUT_MS: '2000' })).toEqual([BUDGET_PROBLEM]);
    expect(problemsOf({ CORE_TENANTS_RPC_TIMEOUT_MS: '2000', BILLING_TIMEOUT_MS: '500', VM_PROVIDER_TIMEOUT_MS: '500' })).toEqual([]);
  });
});
