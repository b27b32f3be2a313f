import { fake } from '@platform/testing-doubles';
import Redis from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuthCacheSettings } from './auth-cache-settings';
import { AuthReadsRepository } from './auth-reads.repository';
import { CacheSeal } from './cache-seal';
import { CredentialStore } from './credential-store';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/15';
const secrets = { current: 'a-cache-secret-for-these-tests-only-000' };
const pluginID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

/** The plugins table as the store reads it: one plugin whose token hash the tests replace. */
function plugins(): { tokenHash: string; repository: AuthReadsRepository } {
  const state = { tokenHash: 'first-hash' };
  return Object.assign(state, { repository: fake<AuthReadsRepository>({ pluginTokenHash: async () => state.tokenHash }) });
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
    const store = new CredentialStore(database.repository, redis, new CacheSeal(secrets), new AuthCacheSettings(secrets, 5));
    expect(await store.findPlugin(pluginID)).toEqual({ tokenHash: 'first-hash' });
    database.tokenHash = 'second-hash';
    const replica = new CredentialStore(database.repository, redis, new CacheSeal(secrets), new AuthCacheSettings(secrets, 5));
    expect(await replica.findPlugin(pluginID)).toEqual({ tokenHash: 'first-hash' });

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60_001 });
    await redis.del(`auth:v2:plugin:${pluginID}`);
    expect(await store.findPlugin(pluginID)).toEqual({ tokenHash: 'second-hash' });
    expect(await replica.findPlugin(pluginID)).toEqual({ tokenHash: 'second-hash' });
  });
});

describe('CredentialStore unknown connection ids', () => {
  const connectionID = '1f0c8a52-3d4e-4b6f-8a7b-9c0d1e2f3a4b';
  let redis: Redis;

  /** plugin_connections as the store reads it: empty until the test installs the connection. */
  function connections(): { installed: boolean; reads: number; repository: AuthReadsRepository } {
    const state = { installed: false, reads: 0 };
    const repository = fake<AuthReadsRepository>({
      liveConnectionSecret: async () => {
        state.reads += 1;
        return state.installed ? { tokenHash: 'hash', tenantID: 'tenant', pluginID } : undefined;
      },
    });
    return Object.assign(state, { repository });
  }

  beforeAll(() => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  });
  afterEach(() => redis.del(`auth:v2:connection:${connectionID}`));
  afterAll(() => redis.quit());

  it('remembers an unknown id, and a replica sees the connection at once once an install clears it', async () => {
    const database = connections();
    const installer = new CredentialStore(database.repository, redis, new CacheSeal(secrets), new AuthCacheSettings(secrets, 5));
    const replica = new CredentialStore(database.repository, redis, new CacheSeal(secrets), new AuthCacheSettings(secrets, 5));
    expect(await replica.findLiveConnection(connectionID)).toBeUndefined();
    expect(await replica.findLiveConnection(connectionID)).toBeUndefined();
    expect(database.reads).toBe(1);

    database.installed = true;
    await installer.forgetUnknownConnection(connectionID);
    expect(await replica.findLiveConnection(connectionID)).toEqual({ tokenHash: 'hash', tenantID: 'tenant', pluginID });
  });

  it('remembers nothing when AUTH_UNKNOWN_CREDENTIAL_CACHE_SECONDS is 0', async () => {
    const database = connections();
    const store = new CredentialStore(database.repository, redis, new CacheSeal(secrets), new AuthCacheSettings(secrets, 0));
    await store.findLiveConnection(connectionID);
    await store.findLiveConnection(connectionID);
    expect(database.reads).toBe(2);
  });
});
