import { Inject, Injectable, Logger } from '@nestjs/common';
import { REDIS } from '@platform/redis';
import type Redis from 'ioredis';
import { DomainsRepository, HostnameEntry } from './domains.repository';

export type { HostnameEntry } from './domains.repository';

const CACHE_TTL_SECONDS = 60;
/** Longer than any read-then-fill race, so a lookup racing a removal cannot re-cache it. */
const TOMBSTONE_TTL_SECONDS = 120;

const entryKey = (hostname: string) => `helpdesk:v1:hostname:${hostname}`;
const tombstoneKey = (hostname: string) => `helpdesk:v1:hostname-removed:${hostname}`;

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
  ) {}

  /** `hostname` must be normalised (normalizeHostname). */
  async resolve(hostname: string): Promise<HostnameEntry | undefined> {
    const cached = await this.redis.mget(entryKey(hostname), tombstoneKey(hostname)).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'hostname cache unavailable, reading PostgreSQL');
      return undefined;
    });
    if (cached?.[0] && !cached[1]) return JSON.parse(cached[0]) as HostnameEntry;
    const entry = await this.domains.entryOf(hostname);
    if (entry && cached && !cached[1]) {
      await this.redis
        .eval(
          `if redis.call('EXISTS', KEYS[2]) == 0 then redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) end return 1`,
          2,
          entryKey(hostname),
          tombstoneKey(hostname),
          JSON.stringify(entry),
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
    } catch (error) {
      this.logger.error({ err: error, hostname }, 'could not evict a removed hostname from the cache');
    }
  }
}
