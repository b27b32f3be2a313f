import { RedisCompatibleServer } from '@platform/local-services';
import { TEST_REDIS_URL } from '@platform/test-support';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedWindowCounters, WindowCounter, WindowLease, WindowReading } from './fixed-window-counters';
import { blockOf, LeasedWindows } from './leased-windows';

/** How many turns of the microtask queue after each lease answer callers arrive at. */
const TURNS_AFTER_ANSWER = 12;

/**
 * The real counters, on Redis, with callers arriving while a lease's answer is
 * handed over: once Redis has answered a lease, a block's worth of callers
 * charges at each of the next `TURNS_AFTER_ANSWER` turns of the microtask
 * queue (while any is left to arrive). However many turns the replica takes
 * between Redis's answer and the request that asked for it, callers come in
 * between, as requests of other connections do on a busy replica; the order is
 * the same on any machine, fast or slow.
 */
class CallersBetweenTurns extends FixedWindowCounters {
  arrive: () => void = () => undefined;

  override async lease(counter: WindowCounter, block: number): Promise<WindowLease> {
    const answer = await super.lease(counter, block);
    let turn = 0;
    const next = () => {
      for (let caller = 0; caller < blockOf(counter.limit); caller += 1) this.arrive();
      turn += 1;
      if (turn < TURNS_AFTER_ANSWER) queueMicrotask(next);
    };
    queueMicrotask(next);
    return answer;
  }
}


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

  /**
   * `callers` charges of one counter on one replica, each arriving while an
   * earlier one's lease is handed over (CallersBetweenTurns): their readings,
   * in order of arrival.
   */
  const chargeWhileLeasesAnswer = async (budget: WindowCounter, callers: number): Promise<WindowReading[]> => {
    const redis = new Redis(server ? server.url(0) : TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    connections.push(redis);
    const between = new CallersBetweenTurns(redis);
    const windows = new LeasedWindows(between);
    const verdicts: Promise<WindowReading[]>[] = [];
    between.arrive = () => {
      if (verdicts.length < callers) verdicts.push(windows.charge([budget]));
    };
    // The first caller leases; the others arrive as leases answer, and any left once they stop arrive at the end.
    for (let settled = 0; settled < callers; settled = verdicts.length) {
      if (verdicts.length === settled) between.arrive();
      await Promise.all(verdicts);
    }
    return (await Promise.all(verdicts)).map(([reading]) => reading);
  };

  it('serves every caller under the limit while others arrive as each lease answers, leasing what it served', async () => {
    const budget = counter('arrivals-under-limit', 100);
    expect(blockOf(budget.limit)).toBe(1);
    const readings = await chargeWhileLeasesAnswer(budget, 28);
    expect(readings.filter(({ allowed }) => !allowed)).toEqual([]);
    expect(Number(await connections[0].get(budget.key))).toBe(28);
  });

  it('serves whole blocks to callers arriving as each lease answers, none refused under the limit', async () => {
    const budget = counter('arrivals-whole-blocks', 300);
    expect(blockOf(budget.limit)).toBe(3);
    const readings = await chargeWhileLeasesAnswer(budget, 40);
    expect(readings.filter(({ allowed }) => !allowed)).toEqual([]);
    expect(Number(await connections[0].get(budget.key))).toBeGreaterThanOrEqual(40);
    expect(Number(await connections[0].get(budget.key))).toBeLessThan(40 + blockOf(budget.limit));
  });

  it('refuses only once the limit is served, with nothing left and the window\'s end, and never counts past it', async () => {
    const budget = counter('arrivals-past-limit', 6);
    const readings = await chargeWhileLeasesAnswer(budget, 15);
    expect(readings.filter(({ allowed }) => allowed)).toHaveLength(6);
    const refusals = readings.filter(({ allowed }) => !allowed);
    expect(refusals).toHaveLength(9);
    for (const refusal of refusals) {
      expect(refusal.remaining).toBe(0);
      expect(refusal.resetMs).toBeGreaterThan(0);
      expect(refusal.resetMs).toBeLessThanOrEqual(60_000);
    }
    expect(Number(await connections[0].get(budget.key))).toBe(6);
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
