import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { connectionNameOf, duplicateConnection, isClusterClient, keySlot, REDIS } from '@platform/redis';
import type Redis from 'ioredis';
import { isLapsed } from '../streams/streamed-event';
import { TenantStreams } from '../streams/tenant-streams';
import { framed } from './frames';
import { Subscriber } from './subscriber';

/** Entries one read takes per stream at most. */
const READ_COUNT = 500;
/** How long one blocking read waits; a tenant joined meanwhile is read from the next round on (its sockets caught up to the join already). */
const BLOCK_MS = 250;
/** Pause after a failed read (Redis away), so the loop does not spin. */
const RETRY_MS = 500;
/** On a cluster with tenants in several slots: the wait after a round of reads that found nothing, the most an event waits. */
const CLUSTER_POLL_MS = 50;

interface TenantReader {
  /** The offset the next read starts after; undefined until the stream's tail is known. */
  position?: string;
  subscribers: Set<Subscriber>;
}

/**
 * Reads, with one blocking XREAD per round on a connection of its own, the
 * streams of the tenants this replica holds sockets for, and hands each entry
 * to those sockets. Any replica reads any tenant: no sticky sessions.
 *
 * A tenant is read from the tail its stream had when its first socket
 * joined; a socket catches up on what came before (TenantStreams.after) while
 * it holds back what arrives live (Subscriber), so nothing falls between.
 */
@Injectable()
export class StreamFanOut implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(StreamFanOut.name);
  private readonly tenants = new Map<string, TenantReader>();
  private reader: Redis | undefined;
  private stopped = false;
  private loop: Promise<void> | undefined;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly streams: TenantStreams,
  ) {}

  onModuleInit(): void {
    this.reader = duplicateConnection(this.redis, `${connectionNameOf(this.redis, 'realtime-gateway')}:streams`);
    this.reader.on('error', () => undefined);
    this.loop = this.run(this.reader);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.reader?.disconnect();
    await this.loop;
  }

  /** Adds a socket to its tenant's readers; resolves once the tenant is being read. */
  async join(subscriber: Subscriber): Promise<void> {
    const tenantID = subscriber.identity.tenantID;
    let tenant = this.tenants.get(tenantID);
    if (!tenant) {
      tenant = { subscribers: new Set() };
      this.tenants.set(tenantID, tenant);
    }
    tenant.subscribers.add(subscriber);
    if (tenant.position === undefined) {
      const tail = await this.streams.lastOffset(tenantID);
      // Another socket of the tenant may have set it meanwhile; the earlier tail is kept (nothing skipped).
      tenant.position ??= tail;
    }
  }

  leave(subscriber: Subscriber): void {
    const tenant = this.tenants.get(subscriber.identity.tenantID);
    if (!tenant) return;
    tenant.subscribers.delete(subscriber);
    if (tenant.subscribers.size === 0) this.tenants.delete(subscriber.identity.tenantID);
  }

  private async run(reader: Redis): Promise<void> {
    while (!this.stopped) {
      const reading = [...this.tenants.entries()].filter(([, tenant]) => tenant.position !== undefined && tenant.subscribers.size > 0);
      if (reading.length === 0) {
        await sleep(BLOCK_MS);
        continue;
      }
      try {
        const keys = reading.map(([tenantID]) => this.streams.streamKey(tenantID));
        const positions = reading.map(([, tenant]) => tenant.position as string);
        const replies = await readStreams(reader, keys, positions);
        for (const [key, raw] of replies ?? []) {
          const index = keys.indexOf(key);
          if (index < 0 || raw.length === 0) continue;
          const [tenantID, tenant] = reading[index];
          tenant.position = raw[raw.length - 1][0];
          // Each entry's frame is encoded once, for all the tenant's sockets on this replica.
          const entries = this.streams.openAll(tenantID, raw).map((entry) => (isLapsed(entry) ? entry : framed(entry)));
          if (entries.length === 0) continue;
          for (const subscriber of tenant.subscribers) subscriber.receiveLive(entries);
        }
      } catch (error) {
        if (this.stopped) return;
        this.logger.warn({ err: error }, 'stream read failed; retrying');
        await sleep(RETRY_MS);
      }
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type StreamReplies = [string, [string, string[]][]][];

/**
 * New entries of the streams after their positions. One blocking XREAD when
 * the streams share a slot, which is always so on one server. On a cluster
 * an XREAD naming streams of two slots is refused (CROSSSLOT), so the
 * tenants are read with one XREAD per slot, all at once and without
 * blocking (a blocking read would hold its node's connection, and the reads
 * of the other slots on that node would wait behind it); a round that finds
 * nothing waits CLUSTER_POLL_MS before the next.
 */
async function readStreams(reader: Redis, keys: string[], positions: string[]): Promise<StreamReplies | null> {
  const slots = isClusterClient(reader) ? bySlot(keys) : [keys.map((_, index) => index)];
  if (slots.length === 1) {
    return (await reader.xread('COUNT', READ_COUNT, 'BLOCK', BLOCK_MS, 'STREAMS', ...keys, ...positions)) as StreamReplies | null;
  }
  const read = (indexes: number[]) =>
    reader.xread('COUNT', READ_COUNT, 'STREAMS', ...indexes.map((index) => keys[index]), ...indexes.map((index) => positions[index])) as Promise<StreamReplies | null>;
  const replies = (await Promise.all(slots.map(read))).flatMap((reply) => reply ?? []);
  if (replies.length === 0) await sleep(CLUSTER_POLL_MS);
  return replies;
}

/** The indexes of the keys, grouped by cluster slot. */
function bySlot(keys: string[]): number[][] {
  const groups = new Map<number, number[]>();
  keys.forEach((key, index) => {
    const slot = keySlot(key);
    groups.set(slot, [...(groups.get(slot) ?? []), index]);
  });
  return [...groups.values()];
}
