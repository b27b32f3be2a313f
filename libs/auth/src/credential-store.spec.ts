import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuthCacheSettings } from './auth-cache-settings';
import { AuthReadsRepository } from './auth-reads.repository';
import { CacheSeal } from './cache-seal';
import { CredentialStore } from './credential-store';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/15';
const secrets = { current: 'a-cache-secret-for-these-tests-only-000' };
const pluginID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

/** The plugins table as the store reads it: one plugin whose token hash the tests replace. */
function plugins(): DataSource & { tokenHash: string } {
  const fake = { tokenHash: 'first-hash', query: async () => [{ token_hash: fake.tokenHash }] };
  return fake as unknown as DataSource & typeof fake;
}

describe('CredentialStore plugin secrets', () => {
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await redis.del(`auth:v2:plugin:${pluginID}`);
  });
  afterAll(() => redis.quit());

  it('serve a replaced plugin token hash once the 60 s copy read before has expired, on every replica, not later', async () => {
    const database = plugins();
    const store = new CredentialStore(new AuthReadsRepository(database), redis, new CacheSeal(secrets), new AuthCacheSettings(secrets, 5));
    expect(await store.findPlugin(pluginID)).toEqual({ tokenHash: 'first-hash' });
    database.tokenHash = 'second-hash';
    const replica = new CredentialStore(new AuthReadsRepository(database), redis, new CacheSeal(secrets), new AuthCacheSettings(secrets, 5));
    expect(await replica.findPlugin(pluginID)).toEqual({ tokenHash: 'first-hash' });

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60_001 });
    await redis.del(`auth:v2:plugin:${pluginID}`);
    expect(await store.findPlugin(pluginID)).toEqual({ tokenHash: 'second-hash' });
    expect(await replica.findPlugin(pluginID)).toEqual({ tokenHash: 'second-hash' });
  });
});
