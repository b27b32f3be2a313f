import { fake } from '@platform/testing-doubles';
import { TEST_REDIS_URL } from '@platform/test-support';
import Redis from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuthCacheSettings, standingInvalidationChannel } from './auth-cache-settings';
import { AuthReadsRepository } from './auth-reads.repository';
import { CacheSeal } from './cache-seal';
import type { RequestCharges } from './request-charges';
import { StandingInvalidations } from './standing-invalidations';
import { TenantAccessService } from './tenant-access.service';

const seal = new CacheSeal({ current: 'a-cache-secret-for-these-tests-only-000' });
const tenantID = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';
const operator = { kind: 'operator' as const, operatorID: '3b241101-e2bb-4255-8caf-4136c566a962' };
const plugin = { kind: 'plugin' as const, pluginID: '7c9e6679-7425-40de-944b-e07fc1f90ae7' };

/** PostgreSQL as the access checks read it: the operator's role and the plugin's installation, changed by the tests; the reads counted. */
function database(): { role: 'owner' | 'member' | null; installed: boolean; reads: number; repository: AuthReadsRepository } {
  const state = { role: 'member' as 'owner' | 'member' | null, installed: true, reads: 0 };
  const repository = fake<AuthReadsRepository>({
    operatorStanding: async () => {
      state.reads += 1;
      return { tenantExists: true, standing: state.role };
    },
    pluginStanding: async () => {
      state.reads += 1;
      return { tenantExists: true, standing: state.installed };
    },
  });
  return Object.assign(state, { repository });
}

async function refusalOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as { key: string }).key;
  }
}

/** vi.waitFor's own limit is 1 s, which a busy machine outlasts: wait as long as the test may run (60 s). */
const UNTIL_TEST_TIMEOUT = { timeout: 50_000 };

const settings = new AuthCacheSettings({ current: 'a-cache-secret-for-these-tests-only-000' }, 5, standingInvalidationChannel(`spec-${process.pid}`));

/** A replica's invalidation listener, subscribed before it is handed out. */
async function listening(redis: Redis, started: StandingInvalidations[]): Promise<StandingInvalidations> {
  const invalidations = new StandingInvalidations(redis, settings, seal);
  invalidations.onModuleInit();
  started.push(invalidations);
  await vi.waitFor(() => expect(invalidations.listening).toBe(true), UNTIL_TEST_TIMEOUT);
  return invalidations;
}

describe('TenantAccessService standings', () => {
  let redis: Redis;
  let invalidations: StandingInvalidations;
  const started: StandingInvalidations[] = [];
  const replica = (db: { repository: AuthReadsRepository }, listener = invalidations) => new TenantAccessService(db.repository, redis, seal, listener, fake<RequestCharges>({ chargeAdmittedTenant: async () => undefined }), settings);

  beforeAll(async () => {
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    invalidations = await listening(redis, started);
  });
  afterAll(async () => {
    for (const listener of started) await listener.onApplicationShutdown();
  });
  afterEach(async () => {
    vi.useRealTimers();
    await redis.del(`auth:v2:standing:${tenantID}:operator:${operator.operatorID}`, `auth:v2:standing:${tenantID}:plugin:${plugin.pluginID}`);
  });
  afterAll(() => redis.quit());

  it('sees an operator leaving a tenant once the 5 s standing read before has expired, not later', async () => {
    const db = database();
    const access = replica(db);
    await access.require(operator, tenantID);
    db.role = null;
    await access.require(operator, tenantID);
    expect(db.reads).toBe(1);

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 5_001 });
    await redis.del(`auth:v2:standing:${tenantID}:operator:${operator.operatorID}`);
    expect(await refusalOf(access.require(operator, tenantID))).toBe('Forbidden');
    expect(db.reads).toBe(2);
  });

  it('takes an operator standing another replica read from Redis, until that copy expires', async () => {
    const first = database();
    await replica(first).require(operator, tenantID);
    const second = database();
    second.role = null;
    const other = replica(second);
    await other.require(operator, tenantID);
    expect(second.reads).toBe(0);

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 5_001 });
    await redis.del(`auth:v2:standing:${tenantID}:operator:${operator.operatorID}`);
    expect(await refusalOf(other.require(operator, tenantID))).toBe('Forbidden');
  });

  it('refuses a plugin at once when its standing is forgotten (its connection removed)', async () => {
    const db = database();
    const access = replica(db);
    await access.require(plugin, tenantID);
    db.installed = false;
    await replica(database()).forget(tenantID, `plugin:${plugin.pluginID}`);
    expect(await refusalOf(access.require(plugin, tenantID))).toBe('Forbidden');
  });

  it('refuses a removed operator at once on another replica that kept the standing in process', async () => {
    const db = database();
    const kept = replica(db, await listening(redis, started));
    await kept.require(operator, tenantID);
    await kept.require(operator, tenantID);
    expect(db.reads).toBe(1);

    db.role = null;
    await replica(database()).forget(tenantID, `operator:${operator.operatorID}`);
    await vi.waitFor(async () => expect(await refusalOf(kept.require(operator, tenantID))).toBe('Forbidden'), UNTIL_TEST_TIMEOUT);
    expect(db.reads).toBe(2);
  });

  it('keeps nothing in process while its invalidation listener is not subscribed', async () => {
    const db = database();
    const deaf = new StandingInvalidations(redis, settings, seal);
    const access = replica(db, deaf);
    await access.require(operator, tenantID);
    await redis.del(`auth:v2:standing:${tenantID}:operator:${operator.operatorID}`);
    db.role = null;
    expect(await refusalOf(access.require(operator, tenantID))).toBe('Forbidden');
    expect(db.reads).toBe(2);
  });

  it('refuses an owner standing copied from Redis before a demotion and written back after it: the database answers', async () => {
    const key = `auth:v2:standing:${tenantID}:operator:${operator.operatorID}`;
    const db = database();
    db.role = 'owner';
    const kept = replica(db, await listening(redis, started));
    await kept.require(operator, tenantID, { ownerOnly: true });
    const copy = (await redis.get(key))!;
    db.role = 'member';
    await replica(database()).forget(tenantID, `operator:${operator.operatorID}`);
    await vi.waitFor(async () => expect(await refusalOf(kept.require(operator, tenantID, { ownerOnly: true }))).toBe('Forbidden'), UNTIL_TEST_TIMEOUT);
    await redis.set(key, copy, 'PX', 4_000);
    // Its seal still verifies; an unsigned message makes the replica drop what it kept in process.
    await redis.publish(settings.invalidationChannel, `${tenantID} operator:${operator.operatorID}`);
    expect(await refusalOf(kept.require(operator, tenantID, { ownerOnly: true }))).toBe('Forbidden');
    expect(await refusalOf(replica(db).require(operator, tenantID, { ownerOnly: true }))).toBe('Forbidden');
  });

  it('drops every in-process standing when a message it cannot read arrives (a forged message only costs a lookup)', async () => {
    const db = database();
    const kept = replica(db, await listening(redis, started));
    await kept.require(operator, tenantID);
    await redis.del(`auth:v2:standing:${tenantID}:operator:${operator.operatorID}`);
    db.role = null;
    await redis.publish(settings.invalidationChannel, 'not a standing');
    await vi.waitFor(async () => expect(await refusalOf(kept.require(operator, tenantID))).toBe('Forbidden'), UNTIL_TEST_TIMEOUT);
  });
});
