import { PlatformMetrics } from '@platform/observability';
import { fake } from '@platform/testing-doubles';
import { TEST_REDIS_URL } from '@platform/test-support';
import Redis from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuthCacheSettings, standingInvalidationChannel } from './auth-cache-settings';
import { AuthReadsRepository } from './auth-reads.repository';
import { CacheSeal } from './cache-seal';
import { CredentialStore } from './credential-store';
import { StandingInvalidations } from './standing-invalidations';

const secrets = { current: 'a-cache-secret-for-these-tests-only-000' };
const pluginID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const settingsWith = (unknownCredentialTtlSeconds: number) => new AuthCacheSettings(secrets, unknownCredentialTtlSeconds, standingInvalidationChannel(`credential-spec-${process.pid}`));

/** A replica's store, with an invalidation listener of its own (not subscribed unless given one that is). */
function storeOver(
  redis: Redis,
  reads: AuthReadsRepository,
  { unknownCredentialTtlSeconds = 5, invalidations }: { unknownCredentialTtlSeconds?: number; invalidations?: StandingInvalidations } = {},
): CredentialStore {
  const settings = settingsWith(unknownCredentialTtlSeconds);
  const seal = new CacheSeal(secrets);
  const metrics = fake<PlatformMetrics>({ credentialLookup: () => undefined });
  return new CredentialStore(reads, redis, seal, settings, invalidations ?? new StandingInvalidations(redis, settings, seal), metrics);
}

/** The plugins table as the store reads it: one plugin whose token hash the tests replace. */
function plugins(): { tokenHash: string; repository: AuthReadsRepository } {
  const state = { tokenHash: 'first-hash' };
  return Object.assign(state, { repository: fake<AuthReadsRepository>({ pluginTokenHash: async () => state.tokenHash }) });
}

describe('CredentialStore plugin secrets', () => {
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await redis.del(`auth:v2:plugin:${pluginID}`);
  });
  afterAll(() => redis.quit());

  it('serve a replaced plugin token hash once the 60 s copy read before has expired, on every replica, not later', async () => {
    const database = plugins();
    const store = storeOver(redis, database.repository);
    expect(await store.findPlugin(pluginID)).toEqual({ tokenHash: 'first-hash' });
    database.tokenHash = 'second-hash';
    const replica = storeOver(redis, database.repository);
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
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  });
  afterEach(() => redis.del(`auth:v2:connection:{c:${connectionID}}`));
  afterAll(() => redis.quit());

  it('remembers an unknown id, and a replica sees the connection at once once an install clears it', async () => {
    const database = connections();
    const installer = storeOver(redis, database.repository);
    const replica = storeOver(redis, database.repository);
    expect(await replica.findLiveConnection(connectionID)).toBeUndefined();
    expect(await replica.findLiveConnection(connectionID)).toBeUndefined();
    expect(database.reads).toBe(1);

    database.installed = true;
    await installer.forgetUnknownConnection(connectionID);
    expect(await replica.findLiveConnection(connectionID)).toEqual({ tokenHash: 'hash', tenantID: 'tenant', pluginID });
  });

  it('remembers nothing when AUTH_UNKNOWN_CREDENTIAL_CACHE_SECONDS is 0', async () => {
    const database = connections();
    const store = storeOver(redis, database.repository, { unknownCredentialTtlSeconds: 0 });
    await store.findLiveConnection(connectionID);
    await store.findLiveConnection(connectionID);
    expect(database.reads).toBe(2);
  });
});

describe('CredentialStore connection entries and removals', () => {
  const connectionID = '2a7d3c1e-5b6f-4c8d-9e0f-a1b2c3d4e5f6';
  const tenantID = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';
  const keys = [`auth:v2:connection:{c:${connectionID}}`, `auth:v2:connection-revoked:{c:${connectionID}}`, `auth:v2:connection-removing:{c:${connectionID}}`];
  let redis: Redis;
  const started: StandingInvalidations[] = [];

  /** A subscribed listener, as each replica has once ready. */
  async function listening(): Promise<StandingInvalidations> {
    const settings = settingsWith(5);
    const invalidations = new StandingInvalidations(redis, settings, new CacheSeal(secrets));
    invalidations.onModuleInit();
    started.push(invalidations);
    await vi.waitFor(() => expect(invalidations.listening).toBe(true));
    return invalidations;
  }

  /** plugin_connections as the store reads it: one live connection until the test removes it; the reads counted. */
  function connection(): { live: boolean; reads: number; repository: AuthReadsRepository } {
    const state = { live: true, reads: 0 };
    const repository = fake<AuthReadsRepository>({
      liveConnectionSecret: async () => {
        state.reads += 1;
        return state.live ? { tokenHash: 'hash', tenantID, pluginID } : undefined;
      },
    });
    return Object.assign(state, { repository });
  }

  beforeAll(() => {
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  });
  afterEach(() => redis.del(...keys));
  afterAll(async () => {
    for (const listener of started) await listener.onApplicationShutdown();
    await redis.quit();
  });

  it('serves a live connection from its entry on repeat, a Redis read and no query', async () => {
    const database = connection();
    const store = storeOver(redis, database.repository, { invalidations: await listening() });
    expect(await store.findLiveConnection(connectionID)).toEqual({ tokenHash: 'hash', tenantID, pluginID });
    expect(await store.findLiveConnection(connectionID)).toEqual({ tokenHash: 'hash', tenantID, pluginID });
    expect(database.reads).toBe(1);
  });

  it('answers as PostgreSQL does for an entry copied before a removal and written back after it, tombstone and mark deleted', async () => {
    const database = connection();
    const invalidations = await listening();
    const store = storeOver(redis, database.repository, { invalidations });
    await store.findLiveConnection(connectionID);
    const copy = (await redis.get(keys[0]))!;

    // The removal as core-tenants runs it: mark, commit, tombstone, then the plugin's standing on the tenant forgotten everywhere.
    await store.beginRemoval(connectionID);
    database.live = false;
    await store.revokeConnection(connectionID);
    await invalidations.publish({ tenantID, subject: `plugin:${pluginID}` });
    const readsBefore = database.reads;
    await vi.waitFor(async () => {
      await redis.del(keys[1], keys[2]);
      await redis.set(keys[0], copy, 'EX', 60);
      expect(await store.findLiveConnection(connectionID)).toBeUndefined();
    }, { timeout: 20_000 });
    expect(database.reads).toBeGreaterThan(readsBefore);
  });

  it('trusts no positive entry while its listener is not subscribed: a change could have gone unheard', async () => {
    const database = connection();
    const store = storeOver(redis, database.repository);
    await store.findLiveConnection(connectionID);
    await store.findLiveConnection(connectionID);
    expect(database.reads).toBe(2);
  });
});
