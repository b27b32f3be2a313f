import { randomUUID } from 'node:crypto';
import { CacheSeal } from '@platform/auth';
import { RedisCompatibleServer } from '@platform/local-services';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLapsed, StreamedEvent, StreamRead } from './streamed-event';
import { TenantStreams } from './tenant-streams';

const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/15';
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

  describe('the epoch', () => {
    it('is one for replicas racing to make it, and has no expiry once appended to', async () => {
      const tenantID = randomUUID();
      const made = await Promise.all(Array.from({ length: 8 }, () => streams.epochOf(tenantID)));
      expect(new Set(made).size).toBe(1);
      await streams.append(tenantID, [event()]);
      expect(await redis.pttl(`${streams.streamKey(tenantID)}:epoch`)).toBe(-1);
      expect(await streams.epochOf(tenantID)).toBe(made[0]);
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
