import { RedisCompatibleServer } from '@platform/local-services';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedWindowCounters } from './fixed-window-counters';
import { blockOf, LeasedWindows } from './leased-windows';

const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/15';

/** Two replicas, each with its own connection, on real Redis and on the quick start's in-memory server. */
describe.each(['redis', 'in-memory server'] as const)('LeasedWindows on %s', (kind) => {
  let server: RedisCompatibleServer | undefined;
  const connections: Redis[] = [];
  let counters: FixedWindowCounters;
  const prefix = `lease-spec:${process.pid}:${Date.now()}`;
  const counter = (name: string, limit: number, windowSeconds = 60) => ({ key: `${prefix}:${name}`, limit, windowSeconds });
  const replica = () => {
    const redis = new Redis(server ? server.url(0) : TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    connections.push(redis);
    return new LeasedWindows(new FixedWindowCounters(redis));
  };

  beforeAll(async () => {
    if (kind === 'in-memory server') server = await RedisCompatibleServer.start();
    counters = new FixedWindowCounters(connections[connections.push(new Redis(server ? server.url(0) : TEST_REDIS_URL, { maxRetriesPerRequest: 1 })) - 1]);
  });
  afterAll(async () => {
    const keys = await connections[0].keys(`${prefix}:*`);
    if (keys.length > 0) await connections[0].del(...keys);
    for (const redis of connections) redis.disconnect();
    await server?.close();
  });

  it('two replicas together never serve more than the limit, and leave at most one block unserved', async () => {
    const shared = counter('shared', 1_000);
    const [first, second] = [replica(), replica()];
    const verdicts = await Promise.all(Array.from({ length: 1_400 }, (_, index) => (index % 2 === 0 ? first : second).charge([shared])));
    const served = verdicts.filter(([reading]) => reading.allowed).length;
    // docs/security.md: never past the limit; at most (replicas - 1) × block refused early.
    expect(served).toBeLessThanOrEqual(1_000);
    expect(served).toBeGreaterThanOrEqual(1_000 - blockOf(1_000));
    expect(Number(await connections[0].get(shared.key))).toBeLessThanOrEqual(1_000);
  });

  it('answers the window\'s remaining requests and refuses past the limit, exactly on one replica', async () => {
    const budget = counter('one-replica', 300);
    const only = replica();
    const first = await only.charge([budget]);
    expect(first).toEqual([{ allowed: true, remaining: 299, resetMs: expect.any(Number) }]);
    expect(first[0].resetMs).toBeGreaterThan(50_000);
    for (let index = 1; index < 300; index += 1) expect((await only.charge([budget]))[0].allowed).toBe(true);
    expect(await only.charge([budget])).toEqual([{ allowed: false, remaining: 0, resetMs: expect.any(Number) }]);
  });

  it('stops at the first counter that refuses: a principal over its budget spends nothing of its tenant\'s', async () => {
    const principal = counter('principal', 1);
    const tenant = counter('tenant', 5);
    const only = replica();
    expect((await only.charge([principal, tenant])).map(({ allowed }) => allowed)).toEqual([true, true]);
    expect((await only.charge([principal, tenant])).map(({ allowed }) => allowed)).toEqual([false]);
    expect(Number(await connections[0].get(tenant.key))).toBe(1);
  });

  it('gives back what a replica leased and did not spend, for another replica to serve', async () => {
    const budget = counter('given-back', 1_000);
    const leaving = replica();
    await leaving.charge([budget]);
    expect(Number(await connections[0].get(budget.key))).toBe(blockOf(1_000));
    await leaving.giveBack();
    expect(Number(await connections[0].get(budget.key))).toBe(1);
  });

  it('gives nothing back to a window begun after the one leased from', async () => {
    const short = counter('next-window', 200, 1);
    const leasedAt = Date.now();
    await counters.lease(short, 2);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await counters.lease(short, 2);
    expect(await counters.giveBack(short, 2, leasedAt + 1_000 - Date.now())).toBe(0);
    expect(Number(await connections[0].get(short.key))).toBe(2);
  });
});
