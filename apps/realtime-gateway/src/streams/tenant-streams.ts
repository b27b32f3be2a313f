import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { CacheSeal } from '@platform/auth';
import { REDIS } from '@platform/redis';
import type Redis from 'ioredis';
import { isReadableOffset } from './offsets';
import { isLapsed, StreamedEvent, StreamRead } from './streamed-event';

export const STREAM_SETTINGS = Symbol('STREAM_SETTINGS');

export interface StreamSettings {
  /** The environment's namespace (the transport's): part of every key, so two environments on one Redis never mix. */
  namespace: string;
  retentionMs: number;
  maxEvents: number;
}

/** The offset before any entry: a stream id below every real one. */
export const ORIGIN_OFFSET = '0-0';
const OFFSET = /^\d{1,20}-\d{1,20}$/;

export function isOffset(value: unknown): value is string {
  return typeof value === 'string' && OFFSET.test(value);
}

/** The field an entry's sealed content travels in. */
const FIELD = 'e';
/** How long past the window a sealed entry still opens: the stream trims approximately, and clocks differ a little. */
const SEAL_SLACK_MS = 60_000;
/** Entries a resume looks at past its offset to find the first one that opens (the others: not sealed by the relay). */
const RESUME_LOOKAHEAD = 16;

/** What an entry's seal covers besides the stream's key and its expiry. */
interface SealedContent {
  epoch: string;
  /** The entry's own offset: a copy appended elsewhere in the stream does not open as an event. Absent in entries of earlier releases. */
  at?: string;
  event: StreamedEvent;
}

/**
 * One Redis Stream per tenant, the real-time fan-out between replicas
 * (docs/realtime.md). The relay appends; every gateway replica reads the
 * streams of the tenants it holds sockets for, and replays a window of them
 * on resume.
 *
 * Beside each stream sits its epoch, a random id made when the stream is
 * first written to or subscribed to (SET NX, so replicas racing to make it
 * agree on the first). It has no expiry, and nothing but the loss of
 * Redis's data changes it (restarted empty, flushed, a failover that lost
 * the write, eviction): a client presenting an older epoch is told to resync
 * rather than given offsets of another stream. The stream itself expires
 * when its tenant is quiet for twice the window; it begins again under the
 * same epoch, and an offset of the old one is no longer held (resync).
 *
 * Entries are sealed (libs/auth CacheSeal: HMAC-SHA256 with CACHE_SECRET over
 * the stream's key, an expiry and the content, which names the entry's own
 * offset), so whoever can write to Redis cannot inject an event, move one to
 * another tenant's stream or to another place in its own, or keep one past
 * the window: a gateway drops what does not open, drops a copy sealed for
 * another offset, and answers an entry that lapsed with a resync.
 */
@Injectable()
export class TenantStreams {
  private readonly logger = new Logger(TenantStreams.name);

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly seal: CacheSeal,
    @Inject(STREAM_SETTINGS) private readonly settings: StreamSettings,
  ) {}

  streamKey(tenantID: string): string {
    return `realtime:v1:${this.settings.namespace}:stream:${tenantID}`;
  }

  private epochKey(tenantID: string): string {
    return `${this.streamKey(tenantID)}:epoch`;
  }

  /** The stream lives twice the window after the last append: a quiet tenant's stream goes (its epoch stays). */
  private get streamLifetimeMs(): number {
    return this.settings.retentionMs * 2;
  }

  /** The stream's epoch, made now if it has none. */
  async epochOf(tenantID: string): Promise<string> {
    const key = this.epochKey(tenantID);
    const made = randomUUID();
    const replies = await this.redis.multi().set(key, made, 'NX').get(key).exec();
    if (!replies || replies.some(([error]) => error)) throw replies?.find(([error]) => error)?.[0] ?? new Error('epoch read aborted');
    const current = replies[1][1];
    if (typeof current !== 'string') throw new Error('epoch key vanished between its SET NX and its GET');
    return current;
  }

  /**
   * Begins a new epoch of the tenant's stream: the entries appended from now
   * on carry it, so every socket of the tenant, on any replica, is told to
   * resync at the next one, and a resume with the old epoch is answered with
   * a resync. For when events were lost before they reached the stream.
   */
  async beginEpoch(tenantID: string): Promise<string> {
    const made = randomUUID();
    // Like the epoch it replaces, it never expires (see epochOf).
    await this.redis.set(this.epochKey(tenantID), made);
    return made;
  }

  /**
   * Appends events in order, each sealed with the stream's epoch and its own
   * offset, trimming what fell out of the window. The offsets are chosen
   * here (after the stream's newest entry, from this clock's milliseconds),
   * so that the seal can name them; one relay appends at a time. Should
   * something else have written the stream's top since it was read (a
   * second appender, or a Redis writer), Redis refuses the XADDs at or below
   * it, the append fails and the relay appends the batch again at its next
   * round (at least once); no entry is ever placed below one appended before.
   */
  async append(tenantID: string, events: StreamedEvent[], nowMs = Date.now()): Promise<void> {
    if (events.length === 0) return;
    const epoch = await this.epochOf(tenantID);
    const key = this.streamKey(tenantID);
    const offsets = offsetsAfter(await this.lastOffset(tenantID), nowMs, events.length);
    const expiresAtMs = nowMs + this.settings.retentionMs + SEAL_SLACK_MS;
    const pipeline = this.redis.multi();
    events.forEach((event, index) => {
      const content: SealedContent = { epoch, at: offsets[index], event };
      pipeline.xadd(key, 'MAXLEN', '~', this.settings.maxEvents, offsets[index], FIELD, this.seal.seal(key, JSON.stringify(content), expiresAtMs));
    });
    pipeline.xtrim(key, 'MINID', '~', `${Math.max(0, nowMs - this.settings.retentionMs)}-0`);
    pipeline.pexpire(key, this.streamLifetimeMs);
    const results = await pipeline.exec();
    const failed = results?.find(([error]) => error);
    if (!results || failed) throw failed?.[0] ?? new Error('stream append aborted');
    // Epochs of earlier releases were made with an expiry: from the first append on, they keep. Outside the
    // transaction, which touches the stream's key alone (the epoch's may live in another cluster slot); should
    // it fail, the appended events stand and the next append repeats it.
    await this.redis.persist(this.epochKey(tenantID)).catch(() => undefined);
  }

  /** The offset of the stream's newest entry, or the origin when it has none. */
  async lastOffset(tenantID: string): Promise<string> {
    const [newest] = await this.redis.xrevrange(this.streamKey(tenantID), '+', '-', 'COUNT', 1);
    return newest?.[0] ?? ORIGIN_OFFSET;
  }

  /**
   * Whether a client that received the entry at `offset` can be given
   * everything after it: the entry is still in the stream (so nothing after
   * it was trimmed), and the first entry after it that opens has not lapsed
   * (the entries after it are newer: if the first is deliverable, so are
   * they; should one lapse all the same, the replay tells the client to
   * resync there). An offset Redis cannot read after is held by no stream.
   */
  async resumableAfter(tenantID: string, offset: string, nowMs = Date.now()): Promise<boolean> {
    if (!isReadableOffset(offset)) return false;
    const raw = await this.redis.xrange(this.streamKey(tenantID), offset, '+', 'COUNT', RESUME_LOOKAHEAD + 1);
    if (raw[0]?.[0] !== offset) return false;
    const [first] = this.openAll(tenantID, raw.slice(1), nowMs);
    return first === undefined || !isLapsed(first);
  }

  /** Up to `count` entries after `offset`, oldest first, with the offset the next read starts after. */
  async after(tenantID: string, offset: string, count: number, nowMs = Date.now()): Promise<{ entries: StreamRead[]; last: string }> {
    const raw = await this.redis.xrange(this.streamKey(tenantID), `(${offset}`, '+', 'COUNT', count);
    return { entries: this.openAll(tenantID, raw, nowMs), last: raw.at(-1)?.[0] ?? offset };
  }

  /**
   * The entries of a read that open, in order: each an entry to deliver, or
   * one that lapsed (its seal expired, it is older than the window, or it
   * does not name its offset), which a socket that had not passed it must be
   * told of. What the relay did not seal, and copies of an entry sealed for
   * another offset, are dropped and logged: they stand for no event missed.
   */
  openAll(tenantID: string, raw: [id: string, fields: string[]][], nowMs = Date.now()): StreamRead[] {
    const key = this.streamKey(tenantID);
    const oldestInWindowMs = nowMs - this.settings.retentionMs;
    const entries: StreamRead[] = [];
    for (const [offset, fields] of raw) {
      const sealed = fields[0] === FIELD ? fields[1] : undefined;
      // Opened whatever its expiry (a `now` of 0), to tell an entry that lapsed from one the relay never sealed.
      const opened = sealed === undefined ? undefined : this.seal.openEntry('realtime-stream', key, sealed, 0);
      if (opened === undefined) {
        this.logger.warn({ tenantID, offset }, 'stream entry dropped: not sealed by the relay');
        continue;
      }
      const { epoch, at, event } = JSON.parse(opened.value) as SealedContent;
      if (at !== undefined && at !== offset) {
        this.logger.warn({ tenantID, offset, sealedAt: at }, 'stream entry dropped: a copy of the entry sealed at another offset');
        continue;
      }
      const lapsed = at === undefined || opened.expiresAtMs <= nowMs || millisecondsOf(offset) < oldestInWindowMs;
      entries.push(lapsed ? { offset, lapsed: true } : { offset, epoch, event });
    }
    return entries;
  }
}

/**
 * `count` offsets for new entries, in order, after `newest`: from `nowMs`,
 * or from `newest`'s millisecond when that is not behind this clock (another
 * replica's clock ran ahead), so that they always follow it.
 */
function offsetsAfter(newest: string, nowMs: number, count: number): string[] {
  const [newestMs, newestSeq] = newest.split('-').map(BigInt);
  const now = BigInt(nowMs);
  const [ms, firstSeq] = now > newestMs ? [now, 0n] : [newestMs, newestSeq + 1n];
  return Array.from({ length: count }, (_, index) => `${ms}-${firstSeq + BigInt(index)}`);
}

/** An offset's milliseconds, as a number (offsets this far from the epoch are exact in a double). */
function millisecondsOf(offset: string): number {
  return Number(offset.slice(0, offset.indexOf('-')));
}
