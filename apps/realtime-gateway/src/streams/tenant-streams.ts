import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { CacheSeal } from '@platform/auth';
import { REDIS } from '@platform/redis';
import type Redis from 'ioredis';
import { StreamedEvent, StreamEntry } from './streamed-event';

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

/**
 * One Redis Stream per tenant, the real-time fan-out between replicas
 * (docs/realtime.md). The relay appends; every gateway replica reads the
 * streams of the tenants it holds sockets for, and replays a window of them
 * on resume.
 *
 * Beside each stream sits its epoch, a random id made when the stream is
 * first written to (SET NX). A stream lost with its epoch (Redis restarted
 * empty, the tenant quiet longer than the keys live) gets a new epoch, and a
 * client presenting the old one is told to resync rather than given offsets
 * of another stream.
 *
 * Entries are sealed (libs/auth CacheSeal: HMAC-SHA256 with CACHE_SECRET over
 * the stream's key, an expiry and the content), so whoever can write to Redis
 * cannot inject an event, move one to another tenant's stream or keep one
 * past the window: a gateway drops what does not open.
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

  /** The keys live twice the window after the last append: a quiet tenant's stream goes, and so does its epoch. */
  private get keyLifetimeMs(): number {
    return this.settings.retentionMs * 2;
  }

  /** The stream's epoch, made now if it has none. */
  async epochOf(tenantID: string): Promise<string> {
    const key = this.epochKey(tenantID);
    const made = randomUUID();
    const replies = await this.redis.multi().set(key, made, 'PX', this.keyLifetimeMs, 'NX').get(key).exec();
    const current = replies?.[1]?.[1];
    if (!replies || replies.some(([error]) => error)) throw replies?.find(([error]) => error)?.[0] ?? new Error('epoch read aborted');
    return typeof current === 'string' ? current : made;
  }

  /**
   * Begins a new epoch of the tenant's stream: the entries appended from now
   * on carry it, so every socket of the tenant, on any replica, is told to
   * resync at the next one, and a resume with the old epoch is answered with
   * a resync. For when events were lost before they reached the stream.
   */
  async beginEpoch(tenantID: string): Promise<string> {
    const made = randomUUID();
    await this.redis.set(this.epochKey(tenantID), made, 'PX', this.keyLifetimeMs);
    return made;
  }

  /** Appends events in order, sealed with the stream's epoch, trimming what fell out of the window. */
  async append(tenantID: string, events: StreamedEvent[], nowMs = Date.now()): Promise<void> {
    const epoch = await this.epochOf(tenantID);
    const key = this.streamKey(tenantID);
    const expiresAtMs = nowMs + this.settings.retentionMs + SEAL_SLACK_MS;
    const pipeline = this.redis.multi();
    for (const event of events) {
      pipeline.xadd(key, 'MAXLEN', '~', this.settings.maxEvents, '*', FIELD, this.seal.seal(key, JSON.stringify({ epoch, event }), expiresAtMs));
    }
    pipeline.xtrim(key, 'MINID', '~', `${Math.max(0, nowMs - this.settings.retentionMs)}-0`);
    pipeline.pexpire(key, this.keyLifetimeMs);
    pipeline.pexpire(this.epochKey(tenantID), this.keyLifetimeMs);
    const results = await pipeline.exec();
    const failed = results?.find(([error]) => error);
    if (!results || failed) throw failed?.[0] ?? new Error('stream append aborted');
  }

  /** The offset of the stream's newest entry, or the origin when it has none. */
  async lastOffset(tenantID: string): Promise<string> {
    const [newest] = await this.redis.xrevrange(this.streamKey(tenantID), '+', '-', 'COUNT', 1);
    return newest?.[0] ?? ORIGIN_OFFSET;
  }

  /** Whether the entry at `offset` is still in the stream: if it is, nothing after it was trimmed. */
  async holds(tenantID: string, offset: string): Promise<boolean> {
    return (await this.redis.xrange(this.streamKey(tenantID), offset, offset)).length === 1;
  }

  /** Up to `count` entries after `offset`, oldest first, with the offset the next read starts after. */
  async after(tenantID: string, offset: string, count: number): Promise<{ entries: StreamEntry[]; last: string }> {
    const raw = await this.redis.xrange(this.streamKey(tenantID), `(${offset}`, '+', 'COUNT', count);
    return { entries: this.openAll(tenantID, raw), last: raw.at(-1)?.[0] ?? offset };
  }

  /** Verified entries of a read; what does not open is dropped and logged. */
  openAll(tenantID: string, raw: [id: string, fields: string[]][], nowMs = Date.now()): StreamEntry[] {
    const key = this.streamKey(tenantID);
    const entries: StreamEntry[] = [];
    for (const [offset, fields] of raw) {
      const sealed = fields[0] === FIELD ? fields[1] : undefined;
      const opened = sealed === undefined ? undefined : this.seal.open('realtime-stream', key, sealed, nowMs);
      if (opened === undefined) {
        this.logger.warn({ tenantID, offset }, 'stream entry dropped: not sealed by the relay, or past the window');
        continue;
      }
      const { epoch, event } = JSON.parse(opened) as { epoch: string; event: StreamedEvent };
      entries.push({ offset, epoch, event });
    }
    return entries;
  }
}
