import { Inject, Injectable, Logger } from '@nestjs/common';
import { CacheSeal } from '@platform/auth';
import { REDIS, slotTag } from '@platform/redis';
import type Redis from 'ioredis';
import { DomainsRepository, HostnameEntry } from './domains.repository';

export type { HostnameEntry } from './domains.repository';

const CACHE_TTL_SECONDS = 60;
/** Longer than any read-then-fill race, so a lookup racing a removal cannot re-cache it. */
const TOMBSTONE_TTL_SECONDS = 120;

/**
 * Entries are sealed (CacheSeal), so a value written to Redis by anyone else routes no hostname; v1 entries are never read.
 * An entry and its tombstone are read and written together, so they share the hostname's hash tag (one cluster slot).
 */
export const entryKey = (hostname: string) => `helpdesk:v2:hostname:${slotTag('h', hostname)}`;
/** Only ever sends lookups to PostgreSQL, so a forged one routes nothing: left unsealed. */
export const tombstoneKey = (hostname: string) => `helpdesk:v2:hostname-removed:${slotTag('h', hostname)}`;
/** An entry as the previous release named it, before hash tags: still deleted on removal while replicas of that release may read it. */
const untaggedEntryKey = (hostname: string) => `helpdesk:v2:hostname:${hostname}`;

/**
 * Hostname → help center, for whatever serves help centers by Host header.
 * The cache is in Redis, shared by every replica, so `forget` is felt by all of
 * them at once: it deletes the entry and writes a tombstone that a lookup
 * reads in the same round trip and that stops a racing lookup from filling the
 * cache with the removed entry. PostgreSQL stays authoritative: when Redis is
 * away, lookups read it directly.
 */
@Injectable()
export class HostnameDirectory {
  private readonly logger = new Logger(HostnameDirectory.name);

  constructor(
    private readonly domains: DomainsRepository,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly seal: CacheSeal,
  ) {}

  /** `hostname` must be normalised (normalizeHostname). */
  async resolve(hostname: string): Promise<HostnameEntry | undefined> {
    const readAt = Date.now();
    const cached = await this.redis.mget(entryKey(hostname), tombstoneKey(hostname)).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'hostname cache unavailable, reading PostgreSQL');
      return undefined;
    });
    // A value that does not verify is a miss: PostgreSQL answers.
    const value = cached?.[0] && !cached[1] ? this.seal.open('hostname', entryKey(hostname), cached[0], readAt) : undefined;
    if (value !== undefined) return JSON.parse(value) as HostnameEntry;
    const entry = await this.domains.entryOf(hostname);
    if (entry && cached && !cached[1]) {
      await this.redis
        .eval(
          `if redis.call('EXISTS', KEYS[2]) == 0 then redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) end return 1`,
          2,
          entryKey(hostname),
          tombstoneKey(hostname),
          this.seal.seal(entryKey(hostname), JSON.stringify(entry), Date.now() + CACHE_TTL_SECONDS * 1000),
          CACHE_TTL_SECONDS,
        )
        .catch((error: unknown) => this.logger.warn({ err: error }, 'hostname cache fill failed'));
    }
    return entry;
  }

  /**
   * Makes every replica stop resolving `hostname` from the cache. Call it after
   * the removal is committed. If Redis cannot record it, it is unreachable for
   * the lookups too (they then read PostgreSQL), so the failure is logged, not
   * thrown: the removal itself has succeeded.
   */
  async forget(hostname: string): Promise<void> {
    try {
      await this.redis.multi().set(tombstoneKey(hostname), '1', 'EX', TOMBSTONE_TTL_SECONDS).del(entryKey(hostname)).exec();
      await this.redis.del(untaggedEntryKey(hostname));
    } catch (error) {
      this.logger.error({ err: error, hostname }, 'could not evict a removed hostname from the cache');
    }
  }
}
