import { randomUUID } from 'node:crypto';
import { CacheSeal } from '@platform/auth';
import { RedisCompatibleServer } from '@platform/local-services';
import { TEST_REDIS_URL } from '@platform/test-support';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLapsed, StreamedEvent, StreamRead } from './streamed-event';
import { TenantStreams } from './tenant-streams';

const RETENTION_MS = 10_000;
/** A seal opens until the window and a minute of slack have passed since the append. */
const SEAL_LIFETIME_MS = RETENTION_MS + 60_000;

const event = (): StreamedEvent => ({ id: randomUUID(), type: 'session.opened', occurredAt: '2026-01-01T00:00:00.000000Z', subject: null, data: {} });
const eventIDs = (entries: StreamRead[]) => entries.map((entry) => (isLapsed(entry) ? `lapsed ${entry.offset}` : entry.event.id));

/** The same stream rules on real Redis and on the quick start's in-memory server. */
describe.each(['redis', 'in-memory server'] as const)('TenantStreams on %s', (kind) => {
  let server: RedisCompatibleServer | undefined;
  let redis: Redis;
  let streams: TenantStreams;
  const namespace = `tenant-streams-spec-${process.pid}`;

  beforeAll(async () => {
    if (kind === 'in-memory server') server = await RedisCompatibleServer.start();
    redis = new Redis(server ? server.url(0) : TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    streams = new TenantStreams(redis, new CacheSeal({ current: 'a-cache-secret-of-the-tenant-streams-spec' }), { namespace, retentionMs: RETENTION_MS, maxEvents: 1_000 });
  });
  afterAll(async () => {
    const keys = await redis.keys(`realtime:v1:${namespace}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await server?.close();
  });

  /** A new tenant's stream with `count` events appended one by one, a second apart, from `startMs`; their offsets. */
  const streamOf = async (count: number, startMs: number) => {
    const tenantID = randomUUID();
    const appended: { offset: string; id: string }[] = [];
    for (let index = 0; index < count; index += 1) {
      const appending = event();
      await streams.append(tenantID, [appending], startMs + index * 1_000);
      appended.push({ offset: await streams.lastOffset(tenantID), id: appending.id });
    }
    return { tenantID, appended };
  };

  describe('a resume on a quiet tenant', () => {
    it('is refused once the entries after the offset lapsed, though the offset is still in the stream', async () => {
      const appendedAtMs = Date.now() - 1_000;
      const { tenantID, appended } = await streamOf(2, appendedAtMs);
      const [e1, e2] = appended;
      expect(await streams.resumableAfter(tenantID, e1.offset, appendedAtMs + 2_000)).toBe(true);
      // Nothing appended since: nothing trimmed e1. e2's seal lapsed, and it is older than the window besides.
      const later = appendedAtMs + 1_000 + SEAL_LIFETIME_MS + 1;
      expect(await streams.resumableAfter(tenantID, e1.offset, later)).toBe(false);
      expect(eventIDs((await streams.after(tenantID, e1.offset, 10, later)).entries)).toEqual([`lapsed ${e2.offset}`]);
    });

    it('is refused once the entries after the offset are older than the window, while their seals still open', async () => {
      const appendedAtMs = Date.now() - 1_000;
      const { tenantID, appended } = await streamOf(2, appendedAtMs);
      const pastTheWindow = appendedAtMs + 1_000 + RETENTION_MS + 1;
      expect(await streams.resumableAfter(tenantID, appended[0].offset, pastTheWindow)).toBe(false);
    });

    it('is accepted when nothing came after the offset, however old it is', async () => {
      const appendedAtMs = Date.now() - 1_000;
      const { tenantID, appended } = await streamOf(1, appendedAtMs);
      expect(await streams.resumableAfter(tenantID, appended[0].offset, appendedAtMs + SEAL_LIFETIME_MS * 2)).toBe(true);
    });

    it('is refused, without an error, for an offset no stream can hold', async () => {
      const { tenantID } = await streamOf(1, Date.now());
      for (const offset of ['99999999999999999999-0', '18446744073709551616-0', '0-18446744073709551616', '18446744073709551615-18446744073709551615']) {
        expect([offset, await streams.resumableAfter(tenantID, offset)]).toEqual([offset, false]);
      }
    });
  });

  describe('an entry copied within its stream', () => {
    it('is dropped wherever the copy lands', async () => {
      const { tenantID, appended } = await streamOf(2, Date.now());
      const key = streams.streamKey(tenantID);
      const [[, fields]] = await redis.xrange(key, appended[0].offset, appended[0].offset);
      await redis.xadd(key, '*', ...fields);
      const third = event();
      await streams.append(tenantID, [third], Date.now());
      expect(eventIDs((await streams.after(tenantID, appended[0].offset, 10)).entries)).toEqual([appended[1].id, third.id]);
    });
  });

  describe('offsets', () => {
    it('follow the newest entry when this clock is behind the replica that appended it', async () => {
      const nowMs = Date.now();
      const { tenantID, appended } = await streamOf(1, nowMs + 5_000);
      const behind = event();
      await streams.append(tenantID, [behind], nowMs);
      expect(eventIDs((await streams.after(tenantID, appended[0].offset, 10, nowMs)).entries)).toEqual([behind.id]);
    });
  });

  describe('reads', () => {
    it('answer the entries after an offset, oldest first, a page at a time, with where the next page starts', async () => {
      const { tenantID, appended } = await streamOf(5, Date.now() - 5_000);
      const first = await streams.after(tenantID, appended[0].offset, 2);
      expect(eventIDs(first.entries)).toEqual([appended[1].id, appended[2].id]);
      expect(first.last).toBe(appended[2].offset);
      const second = await streams.after(tenantID, first.last, 2);
      expect(eventIDs(second.entries)).toEqual([appended[3].id, appended[4].id]);
      const end = await streams.after(tenantID, second.last, 2);
      expect(end).toEqual({ entries: [], last: second.last });
    });

    it("carry the stream's epoch and each entry's own offset", async () => {
      const { tenantID, appended } = await streamOf(2, Date.now());
      const { entries } = await streams.after(tenantID, '0-0', 10);
      const epoch = await streams.epochOf(tenantID);
      expect(entries.map((entry) => (isLapsed(entry) ? entry : { offset: entry.offset, epoch: entry.epoch }))).toEqual(appended.map(({ offset }) => ({ offset, epoch })));
    });

    it('start at the origin on a stream never appended to, and find nothing there', async () => {
      const tenantID = randomUUID();
      expect(await streams.lastOffset(tenantID)).toBe('0-0');
      expect(await streams.after(tenantID, '0-0', 10)).toEqual({ entries: [], last: '0-0' });
      expect(await streams.resumableAfter(tenantID, '0-0')).toBe(false);
    });

    it("are one tenant's alone: an entry copied into another tenant's stream, or written there unsealed, is dropped", async () => {
      const { tenantID, appended } = await streamOf(1, Date.now());
      const { tenantID: otherTenantID, appended: otherAppended } = await streamOf(1, Date.now());
      const [[, fields]] = await redis.xrange(streams.streamKey(tenantID), appended[0].offset, appended[0].offset);
      const otherKey = streams.streamKey(otherTenantID);
      await redis.xadd(otherKey, '*', ...fields);
      await redis.xadd(otherKey, '*', 'e', JSON.stringify({ epoch: 'forged', event: event() }));
      const own = event();
      await streams.append(otherTenantID, [own]);
      expect(eventIDs((await streams.after(otherTenantID, otherAppended[0].offset, 10)).entries)).toEqual([own.id]);
      expect(eventIDs((await streams.after(tenantID, '0-0', 10)).entries)).toEqual([appended[0].id]);
    });

    it('answer an entry older than the window as lapsed, not as the event', async () => {
      const appendedAtMs = Date.now() - 1_000;
      const { tenantID, appended } = await streamOf(2, appendedAtMs);
      const pastTheWindow = appendedAtMs + 1_000 + RETENTION_MS + 1;
      expect(eventIDs((await streams.after(tenantID, '0-0', 10, pastTheWindow)).entries)).toEqual(appended.map(({ offset }) => `lapsed ${offset}`));
    });
  });

  describe('trimming', () => {
    /** Whether the stream still holds the entry at `offset`. */
    const holds = async (tenantID: string, offset: string) => (await redis.xrange(streams.streamKey(tenantID), offset, offset)).length === 1;

    it('drops the oldest entries past the most a stream keeps, and a resume from one of them is refused', async () => {
      const few = new TenantStreams(redis, new CacheSeal({ current: 'a-cache-secret-of-the-tenant-streams-spec' }), { namespace, retentionMs: RETENTION_MS, maxEvents: 10 });
      const tenantID = randomUUID();
      // More than a node of Redis's stream (100 entries), which approximate trimming drops whole.
      await few.append(tenantID, Array.from({ length: 150 }, event));
      const { entries } = await few.after(tenantID, '0-0', 200);
      expect(entries.length).toBeGreaterThanOrEqual(10);
      expect(entries.length).toBeLessThan(150);
      const firstKept = entries[0].offset;
      const [ms, seq] = firstKept.split('-');
      const dropped = `${ms}-${Number(seq) - 1}`;
      expect(await holds(tenantID, dropped)).toBe(false);
      expect(await few.resumableAfter(tenantID, dropped)).toBe(false);
      expect(await few.resumableAfter(tenantID, firstKept)).toBe(true);
    });

    it('drops, at an append, the entries older than the window, and a resume from one of them is refused', async () => {
      const nowMs = Date.now();
      const tenantID = randomUUID();
      await streams.append(tenantID, Array.from({ length: 150 }, event), nowMs - RETENTION_MS - 5_000);
      const oldest = (await streams.after(tenantID, '0-0', 1)).last;
      const newest = event();
      await streams.append(tenantID, [newest], nowMs);
      expect(await holds(tenantID, oldest)).toBe(false);
      expect(await streams.resumableAfter(tenantID, oldest, nowMs)).toBe(false);
      const { entries } = await streams.after(tenantID, '0-0', 200, nowMs);
      // What approximate trimming kept of the old entries reads as lapsed; the new one as itself.
      expect(eventIDs(entries).at(-1)).toBe(newest.id);
      expect(entries.slice(0, -1).every(isLapsed)).toBe(true);
    });
  });

  describe('the epoch', () => {
    it('is one for replicas racing to make it, and has no expiry once appended to', async () => {
      const tenantID = randomUUID();
      const made = await Promise.all(Array.from({ length: 8 }, () => streams.epochOf(tenantID)));
      expect(new Set(made).size).toBe(1);
      await streams.append(tenantID, [event()]);
      expect(await redis.pttl(`${streams.streamKey(tenantID)}:epoch`)).toBe(-1);
      expect(await streams.epochOf(tenantID)).toBe(made[0]);
    });

    it('begun anew (events were lost before the stream) is carried by the entries appended from then on', async () => {
      const { tenantID, appended } = await streamOf(1, Date.now());
      const before = await streams.epochOf(tenantID);
      const begun = await streams.beginEpoch(tenantID);
      expect(begun).not.toBe(before);
      await streams.append(tenantID, [event()]);
      const entries = (await streams.after(tenantID, '0-0', 10)).entries;
      expect(entries.map((entry) => (isLapsed(entry) ? 'lapsed' : `${entry.offset === appended[0].offset ? 'old' : 'new'} ${entry.epoch === begun ? 'begun' : 'before'}`))).toEqual(['old before', 'new begun']);
      expect(await streams.epochOf(tenantID)).toBe(begun);
    });

    it('made with an expiry by an earlier release, keeps from the first append on', async () => {
      const tenantID = randomUUID();
      await redis.set(`${streams.streamKey(tenantID)}:epoch`, 'an-epoch-of-an-earlier-release', 'PX', 60_000);
      await streams.append(tenantID, [event()]);
      expect(await redis.pttl(`${streams.streamKey(tenantID)}:epoch`)).toBe(-1);
      expect(await streams.epochOf(tenantID)).toBe('an-epoch-of-an-earlier-release');
    });
  });
});
