import { randomUUID } from 'node:crypto';
import { CacheSeal } from '@platform/auth';
import type { SqlRunner } from '@platform/database';
import type { OutboxEvent, OutboxLoss, OutboxRepository } from '@platform/outbox';
import { fake } from '@platform/testing-doubles';
import { TEST_REDIS_URL } from '@platform/test-support';
import Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isLapsed, StreamedEvent } from '../streams/streamed-event';
import { TenantStreams } from '../streams/tenant-streams';
import { OutboxNudgeListener } from './outbox-nudge-listener';
import { OutboxRelay } from './outbox-relay';

const WAIT = { timeout: 50_000, interval: 20 };
/** The relay's poll, far past any test: what it relays without a call, a nudge made it relay. */
const NO_POLL_MS = 3_600_000;

/** An outbox row as the relay claims it. */
function outboxRow(tenantID: string, type = 'message.created'): OutboxEvent {
  const id = randomUUID();
  return { id, tenantID, type, version: 1, orderingKey: `session:${tenantID}`, data: { row: id }, occurredAt: new Date(), occurredAtExact: '2026-01-01T00:00:00.123456Z', headers: null };
}

/**
 * The outbox's `realtime` claim state in memory, with PostgreSQL's
 * transaction: the marks and the losses taken in a transaction that fails
 * are rolled back, so the next round claims the same rows again.
 */
class OutboxDouble {
  readonly pending: OutboxEvent[] = [];
  readonly losses: OutboxLoss[] = [];
  claims = 0;
  private readonly uncommitted = new Map<SqlRunner, { marked: string[]; lossesTaken: number }>();

  readonly dataSource = fake<DataSource>({
    transaction: (async (work: (runner: SqlRunner) => Promise<unknown>) => {
      const runner: SqlRunner = { query: async () => [] };
      this.uncommitted.set(runner, { marked: [], lossesTaken: 0 });
      try {
        const result = await work(runner);
        const { marked, lossesTaken } = this.uncommitted.get(runner) ?? { marked: [], lossesTaken: 0 };
        this.losses.splice(0, lossesTaken);
        for (const id of marked) this.pending.splice(this.pending.findIndex((row) => row.id === id), 1);
        return result;
      } finally {
        this.uncommitted.delete(runner);
      }
    }) as unknown as DataSource['transaction'],
  });

  readonly repository = fake<OutboxRepository>({
    claim: async (runner: SqlRunner, consumer: string, batch: number) => {
      expect(consumer).toBe('realtime');
      this.inTransaction(runner);
      this.claims += 1;
      return this.pending.slice(0, batch);
    },
    takeLosses: async (runner: SqlRunner) => {
      this.inTransaction(runner).lossesTaken = this.losses.length;
      return [...this.losses];
    },
    markConsumed: async (runner: SqlRunner, consumer: string, eventIDs: string[]) => {
      expect(consumer).toBe('realtime');
      this.inTransaction(runner).marked.push(...eventIDs);
    },
  });

  private inTransaction(runner: SqlRunner) {
    const state = this.uncommitted.get(runner);
    if (!state) throw new Error('outbox used outside the claiming transaction');
    return state;
  }
}

describe('OutboxRelay', () => {
  let redis: Redis;
  let streams: TenantStreams;
  const namespace = `outbox-relay-spec-${process.pid}`;

  beforeAll(() => {
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    streams = new TenantStreams(redis, new CacheSeal({ current: 'a-cache-secret-of-the-outbox-relay-spec' }), { namespace, retentionMs: 600_000, maxEvents: 10_000 });
  });
  afterAll(async () => {
    const keys = await redis.keys(`realtime:v1:${namespace}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  const setUp = (tenantStreams: TenantStreams = streams) => {
    const outbox = new OutboxDouble();
    const relay = new OutboxRelay(outbox.dataSource, outbox.repository, tenantStreams, NO_POLL_MS);
    return { outbox, relay };
  };
  /** The ids of the events in a tenant's stream, in its order. */
  const streamed = async (tenantID: string) => (await streams.after(tenantID, '0-0', 10_000)).entries.map((entry) => (isLapsed(entry) ? `lapsed ${entry.offset}` : entry.event.id));

  it("appends each tenant's claimed events to its stream in the claim's order, as the event the sockets receive, and marks the batch consumed", async () => {
    const { outbox, relay } = setUp();
    const [tenantA, tenantB] = [randomUUID(), randomUUID()];
    const rows = [outboxRow(tenantA), outboxRow(tenantB), outboxRow(tenantA, 'session.closed'), outboxRow(tenantB, 'notifications.counts'), outboxRow(tenantA)];
    outbox.pending.push(...rows);

    expect(await relay.relayBatch()).toBe(5);
    expect(await streamed(tenantA)).toEqual([rows[0].id, rows[2].id, rows[4].id]);
    expect(await streamed(tenantB)).toEqual([rows[1].id, rows[3].id]);
    const [first] = (await streams.after(tenantA, '0-0', 1)).entries;
    expect(isLapsed(first) ? first : first.event).toEqual({ id: rows[0].id, type: 'message.created', occurredAt: '2026-01-01T00:00:00.123456Z', subject: `session:${tenantA}`, data: { row: rows[0].id } } satisfies StreamedEvent);
    expect(outbox.pending).toEqual([]);
    expect(await relay.relayBatch()).toBe(0);
  });

  it('marks the events for webhooks alone consumed without streaming them', async () => {
    const { outbox, relay } = setUp();
    const tenantID = randomUUID();
    const rows = [outboxRow(tenantID, 'member.removed'), outboxRow(tenantID), outboxRow(tenantID, 'member.roleChanged')];
    outbox.pending.push(...rows);
    expect(await relay.relayBatch()).toBe(3);
    expect(await streamed(tenantID)).toEqual([rows[1].id]);
    expect(outbox.pending).toEqual([]);
  });

  it('begins a new epoch for a tenant whose events expired in the outbox before it streamed them, before appending what it claimed', async () => {
    const { outbox, relay } = setUp();
    const tenantID = randomUUID();
    outbox.pending.push(outboxRow(tenantID));
    await relay.relayBatch();
    const before = await streams.epochOf(tenantID);
    outbox.losses.push({ tenantID, events: 3 });
    outbox.pending.push(outboxRow(tenantID));
    await relay.relayBatch();
    const epochs = (await streams.after(tenantID, '0-0', 10)).entries.map((entry) => (isLapsed(entry) ? 'lapsed' : entry.epoch === before ? 'before' : 'new'));
    expect(epochs).toEqual(['before', 'new']);
    // A loss is told once: the next batch keeps the epoch.
    const begun = await streams.epochOf(tenantID);
    outbox.pending.push(outboxRow(tenantID));
    await relay.relayBatch();
    expect(await streams.epochOf(tenantID)).toBe(begun);
  });

  describe('when Redis fails', () => {
    it('before anything was appended: marks nothing, and the next round streams every event once', async () => {
      const failing = new TenantStreams(redis, new CacheSeal({ current: 'a-cache-secret-of-the-outbox-relay-spec' }), { namespace, retentionMs: 600_000, maxEvents: 10_000 });
      const { outbox, relay } = setUp(failing);
      const tenantID = randomUUID();
      const rows = [outboxRow(tenantID), outboxRow(tenantID)];
      outbox.pending.push(...rows);
      vi.spyOn(failing, 'append').mockRejectedValueOnce(new Error('Connection is closed.'));

      await expect(relay.relayBatch()).rejects.toThrow('Connection is closed.');
      expect(outbox.pending).toEqual(rows);
      expect(await streamed(tenantID)).toEqual([]);

      expect(await relay.relayBatch()).toBe(2);
      expect(await streamed(tenantID)).toEqual(rows.map((row) => row.id));
      expect(outbox.pending).toEqual([]);
    });

    it("half-way through a batch: marks nothing, loses nothing, and appends what it had appended again with the same event id (at least once)", async () => {
      const failing = new TenantStreams(redis, new CacheSeal({ current: 'a-cache-secret-of-the-outbox-relay-spec' }), { namespace, retentionMs: 600_000, maxEvents: 10_000 });
      const { outbox, relay } = setUp(failing);
      const [tenantA, tenantB] = [randomUUID(), randomUUID()];
      const rows = [outboxRow(tenantA), outboxRow(tenantB)];
      outbox.pending.push(...rows);
      const append = failing.append.bind(failing);
      vi.spyOn(failing, 'append').mockImplementation(async (tenantID, events, nowMs) => {
        if (tenantID === tenantB) throw new Error('Connection is closed.');
        return append(tenantID, events, nowMs);
      });

      await expect(relay.relayBatch()).rejects.toThrow('Connection is closed.');
      expect(outbox.pending).toEqual(rows);

      vi.mocked(failing.append).mockImplementation(append);
      expect(await relay.relayBatch()).toBe(2);
      expect(await streamed(tenantA)).toEqual([rows[0].id, rows[0].id]);
      expect(await streamed(tenantB)).toEqual([rows[1].id]);
      expect(outbox.pending).toEqual([]);
    });
  });

  describe('nudged', () => {
    it('relays at once rather than at its poll, batch after batch until the outbox is drained', async () => {
      const { outbox, relay } = setUp();
      const tenantID = randomUUID();
      const rows = Array.from({ length: 501 }, () => outboxRow(tenantID));
      outbox.pending.push(...rows);
      relay.nudge();
      await vi.waitFor(() => expect(outbox.pending).toEqual([]), WAIT);
      await relay.beforeApplicationShutdown();
      // A full batch (500) makes it claim again at once; one short of full tells it the outbox is drained.
      expect(outbox.claims).toBe(2);
      expect(await streamed(tenantID)).toEqual(rows.map((row) => row.id));
    });

    it("by every commit services-api announces on the channel, and once when it subscribes, for the commits announced before", async () => {
      const channel = `outbox-relay-spec-${randomUUID()}`;
      const nudges: string[] = [];
      const listener = new OutboxNudgeListener(redis, channel, fake<OutboxRelay>({ nudge: () => void nudges.push('nudge') }));
      listener.onModuleInit();
      try {
        await vi.waitFor(() => expect(nudges).toEqual(['nudge']), WAIT);
        // Only the subscription's own channel counts; what the message says is never read.
        await redis.publish(`${channel}-another`, 'x');
        await redis.publish(channel, 'anything at all');
        await vi.waitFor(() => expect(nudges).toEqual(['nudge', 'nudge']), WAIT);
      } finally {
        listener.onApplicationShutdown();
      }
    });
  });
});
