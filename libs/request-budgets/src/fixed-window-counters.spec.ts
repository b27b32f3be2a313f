import { RedisCompatibleServer } from '@platform/local-services';
import type { PlatformMetrics } from '@platform/observability';
import { fake } from '@platform/testing-doubles';
import { TEST_REDIS_URL } from '@platform/test-support';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedWindowCounters, WindowCounter } from './fixed-window-counters';
import { RateLimiter } from './rate-limiter';


/** The same script on real Redis and on the quick start's in-memory server. */
describe.each(['redis', 'in-memory server'] as const)('FixedWindowCounters on %s', (kind) => {
  let server: RedisCompatibleServer | undefined;
  let redis: Redis;
  let counters: FixedWindowCounters;
  const prefix = `quota-spec:${process.pid}:${Date.now()}`;
  const counter = (name: string, limit: number, windowSeconds = 60) => ({ key: `${prefix}:${name}`, limit, windowSeconds });
  /** The readings with their reset in whole seconds, rounded up, as the budgets' headers say it. */
  const charge = async (charged: WindowCounter[]) =>
    (await counters.charge(charged)).map(({ remaining, resetMs, allowed }) => ({ remaining, resetSeconds: Math.ceil(resetMs / 1000), allowed }));

  beforeAll(async () => {
    if (kind === 'in-memory server') server = await RedisCompatibleServer.start();
    redis = new Redis(server ? server.url(0) : TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    counters = new FixedWindowCounters(redis);
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
    expect(await charge([principal, tenant])).toEqual([
      { remaining: 1, resetSeconds: 60, allowed: true },
      { remaining: 4, resetSeconds: 60, allowed: true },
    ]);
    await charge([principal, tenant]);
    const refused = await charge([principal, tenant]);
    expect(refused).toEqual([{ remaining: 0, resetSeconds: 60, allowed: false }]);
    // The principal's refused request spent nothing of the tenant's budget.
    expect(Number(await redis.get(tenant.key))).toBe(2);
    expect(await redis.pttl(principal.key)).toBeGreaterThan(58_000);
  });

  it('keeps charging when the server has forgotten its scripts (SCRIPT FLUSH, a failover)', async () => {
    const tenant = counter('flushed', 5);
    await charge([tenant]);
    await redis.script('FLUSH');
    expect(await charge([tenant])).toEqual([{ remaining: 3, resetSeconds: 60, allowed: true }]);
    expect(await charge([tenant])).toEqual([{ remaining: 2, resetSeconds: 60, allowed: true }]);
  });

  it('starts a new window once the last one ended', async () => {
    const short = counter('short', 1, 1);
    expect((await charge([short]))[0].allowed).toBe(true);
    expect((await charge([short]))[0].allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await charge([short])).toEqual([{ remaining: 0, resetSeconds: 1, allowed: true }]);
  });

  it('limits a rate-limit rule on the same counter: refused past it with the seconds Redis gives the window, whole again once reset', async () => {
    const limiter = new RateLimiter(redis, counters, fake<PlatformMetrics>({ refused: () => undefined }));
    const rule = { name: `${prefix}:rule`, limit: 2, windowSeconds: 60 };
    // Redis's TTL of the key: the window's seconds, rounded to the nearest.
    const windowSeconds = expect.toSatisfy((seconds: number) => seconds >= 55 && seconds <= 60);
    expect(await limiter.hit(rule, 'subject')).toEqual({ allowed: true, retryAfterSeconds: windowSeconds });
    await limiter.hit(rule, 'subject');
    expect(await limiter.hit(rule, 'subject')).toEqual({ allowed: false, retryAfterSeconds: windowSeconds });
    expect(await limiter.hit(rule, 'another subject')).toEqual({ allowed: true, retryAfterSeconds: windowSeconds });
    await limiter.reset(rule, 'subject');
    expect(await limiter.hit(rule, 'subject')).toEqual({ allowed: true, retryAfterSeconds: windowSeconds });
    await redis.del(`ratelimit:v1:${rule.name}:subject`, `ratelimit:v1:${rule.name}:another subject`);
  });
});
