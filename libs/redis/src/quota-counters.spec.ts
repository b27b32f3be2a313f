import { RedisCompatibleServer } from '@platform/local-services';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuotaCounters } from './quota-counters';

const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/15';

/** The same script on real Redis and on the quick start's in-memory server. */
describe.each(['redis', 'in-memory server'] as const)('QuotaCounters on %s', (kind) => {
  let server: RedisCompatibleServer | undefined;
  let redis: Redis;
  let counters: QuotaCounters;
  const prefix = `quota-spec:${process.pid}:${Date.now()}`;
  const counter = (name: string, limit: number, windowSeconds = 60) => ({ key: `${prefix}:${name}`, limit, windowSeconds });

  beforeAll(async () => {
    if (kind === 'in-memory server') server = await RedisCompatibleServer.start();
    redis = new Redis(server ? server.url(0) : TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    counters = new QuotaCounters(redis);
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await server?.close();
  });

  it('counts down each budget in one call and refuses past it, with the seconds left in the window', async () => {
    const principal = counter('p1', 2);
    const tenant = counter('t1', 5);
    expect(await counters.charge([principal, tenant])).toEqual([
      { remaining: 1, resetSeconds: 60, allowed: true },
      { remaining: 4, resetSeconds: 60, allowed: true },
    ]);
    await counters.charge([principal, tenant]);
    const refused = await counters.charge([principal, tenant]);
    expect(refused).toEqual([{ remaining: 0, resetSeconds: 60, allowed: false }]);
    // The principal's refused request spent nothing of the tenant's budget.
    expect(Number(await redis.get(tenant.key))).toBe(2);
    expect(await redis.pttl(principal.key)).toBeGreaterThan(58_000);
  });

  it('keeps charging when the server has forgotten its scripts (SCRIPT FLUSH, a failover)', async () => {
    const tenant = counter('flushed', 5);
    await counters.charge([tenant]);
    await redis.script('FLUSH');
    expect(await counters.charge([tenant])).toEqual([{ remaining: 3, resetSeconds: 60, allowed: true }]);
    expect(await counters.charge([tenant])).toEqual([{ remaining: 2, resetSeconds: 60, allowed: true }]);
  });

  it('starts a new window once the last one ended', async () => {
    const short = counter('short', 1, 1);
    expect((await counters.charge([short]))[0].allowed).toBe(true);
    expect((await counters.charge([short]))[0].allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await counters.charge([short])).toEqual([{ remaining: 0, resetSeconds: 1, allowed: true }]);
  });
});
