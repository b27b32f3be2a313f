import { Inject, Injectable, Logger } from '@nestjs/common';
import { REDIS } from '@platform/redis';
import type Redis from 'ioredis';
import { AuthReadsRepository } from './auth-reads.repository';
import { ExpiringCache } from './expiring-cache';
import { readRedisCopy } from './redis-copy';

/** What verifying a plugin or connection token needs, as cached. */
export interface StoredPluginSecret {
  tokenHash: string;
}

export interface StoredConnectionSecret {
  tokenHash: string;
  tenantID: string;
  pluginID: string;
}

const CACHE_TTL_SECONDS = 60;
/** Longer than the cache TTL, so a revoked entry can never be re-cached and served. */
const TOMBSTONE_TTL_SECONDS = 24 * 60 * 60;
/**
 * How long a removal in progress keeps lookups on PostgreSQL: far longer than
 * any removal, and longer than the cache TTL, so that when it
 * lapses no cache entry from before the removal can be left.
 */
const REMOVAL_IN_PROGRESS_TTL_SECONDS = 10 * 60;

/** Plugin secrets kept in-process at once, per replica. */
const LOCAL_PLUGIN_SECRETS = 10_000;

const pluginKey = (id: string) => `auth:v1:plugin:${id}`;
const connectionKey = (id: string) => `auth:v1:connection:${id}`;
const connectionTombstoneKey = (id: string) => `auth:v1:connection-revoked:${id}`;
const connectionRemovalKey = (id: string) => `auth:v1:connection-removing:${id}`;

/** Fills the cache only while neither a tombstone nor a removal in progress exists. */
const FILL_UNLESS_REVOKED = `if redis.call('EXISTS', KEYS[2]) == 0 and redis.call('EXISTS', KEYS[3]) == 0 then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) end return 1`;

/**
 * Looks up the stored hash of plugin and connection tokens with a short Redis
 * cache in front of PostgreSQL, so the hot path costs one Redis round trip.
 *
 * A removed connection's token never keeps working, whatever crashes between
 * the steps of its removal (docs/plugin-connections.md):
 * 1. before the removal touches anything, `beginRemoval` drops the cached
 *    entry and marks the removal in progress; while the mark exists every
 *    lookup reads PostgreSQL, which is authoritative, and never fills the cache;
 * 2. the removal commits in PostgreSQL: from then on every lookup refuses it;
 * 3. `revokeConnection` writes a tombstone, so lookups refuse it again without
 *    reading PostgreSQL.
 * A crash after 1 leaves at worst a mark that costs lookups a PostgreSQL read
 * until it lapses; a crash after 2 still refuses the token. When Redis is
 * unavailable, lookups go to PostgreSQL.
 */
@Injectable()
export class CredentialStore {
  private readonly logger = new Logger(CredentialStore.name);
  private readonly pluginSecrets = new ExpiringCache<StoredPluginSecret>(LOCAL_PLUGIN_SECRETS);

  constructor(
    private readonly reads: AuthReadsRepository,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  /**
   * Plugin secrets are also kept in this process until their Redis copy
   * expires: nothing revokes a plugin's cached secret early, so this changes
   * nothing of when a new plugin token takes over (at most CACHE_TTL_SECONDS),
   * and spares a Redis round trip on most plugin requests. Connection secrets
   * are never kept here: their revocation must hold at once on every replica.
   */
  async findPlugin(pluginID: string): Promise<StoredPluginSecret | undefined> {
    const kept = this.pluginSecrets.get(pluginID, Date.now());
    if (kept) return kept;
    const readAt = Date.now();
    const copy = await readRedisCopy(this.redis, pluginKey(pluginID)).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'credential cache unavailable, reading PostgreSQL');
      return undefined;
    });
    if (copy) {
      const secret = JSON.parse(copy.value) as StoredPluginSecret;
      if (copy.expiresAtMs !== undefined) this.pluginSecrets.set(pluginID, secret, copy.expiresAtMs);
      return secret;
    }
    const tokenHash = await this.reads.pluginTokenHash(pluginID);
    if (tokenHash === undefined) return undefined;
    const secret: StoredPluginSecret = { tokenHash };
    await this.writeCache(pluginKey(pluginID), secret);
    this.pluginSecrets.set(pluginID, secret, readAt + CACHE_TTL_SECONDS * 1000);
    return secret;
  }

  async findLiveConnection(pluginConnectionID: string): Promise<StoredConnectionSecret | undefined> {
    const keys = [connectionKey(pluginConnectionID), connectionTombstoneKey(pluginConnectionID), connectionRemovalKey(pluginConnectionID)];
    const cached = await this.readCache(keys);
    if (cached?.[1]) return undefined;
    const removalInProgress = Boolean(cached?.[2]);
    if (cached?.[0] && !removalInProgress) return JSON.parse(cached[0]) as StoredConnectionSecret;
    const secret: StoredConnectionSecret | undefined = await this.reads.liveConnectionSecret(pluginConnectionID);
    if (!secret) return undefined;
    // The check and the write are one script, so a removal that begins meanwhile is never undone.
    if (!removalInProgress) {
      await this.redis
        .eval(FILL_UNLESS_REVOKED, keys.length, ...keys, JSON.stringify(secret), CACHE_TTL_SECONDS)
        .catch((error: unknown) => this.logger.warn({ err: error }, 'credential cache fill failed'));
    }
    return secret;
  }

  /**
   * Step 1 of a removal: call it before the removal changes anything. It
   * throws if Redis cannot record it, so the caller can give up before acting.
   */
  async beginRemoval(pluginConnectionID: string): Promise<void> {
    const results = await this.redis
      .multi()
      .set(connectionRemovalKey(pluginConnectionID), '1', 'EX', REMOVAL_IN_PROGRESS_TTL_SECONDS)
      .del(connectionKey(pluginConnectionID))
      .exec();
    const failure = results?.find(([error]) => error)?.[0];
    if (!results || failure) throw failure ?? new Error('removal mark not recorded');
  }

  /** A removal that did not happen (rolled back): lookups may use the cache again. Best effort. */
  async abandonRemoval(pluginConnectionID: string): Promise<void> {
    await this.redis.del(connectionRemovalKey(pluginConnectionID)).catch((error: unknown) => {
      this.logger.warn({ err: error, pluginConnectionID }, 'removal mark not cleared; it lapses on its own');
    });
  }

  /**
   * Step 3, after the removal is committed: the token is refused without
   * reading PostgreSQL. Throws if Redis cannot record it; the removal mark
   * keeps the token refused meanwhile.
   */
  async revokeConnection(pluginConnectionID: string): Promise<void> {
    await this.redis
      .multi()
      .set(connectionTombstoneKey(pluginConnectionID), '1', 'EX', TOMBSTONE_TTL_SECONDS)
      .del(connectionKey(pluginConnectionID))
      .exec();
  }

  private async readCache(keys: string[]): Promise<(string | null)[] | undefined> {
    try {
      return await this.redis.mget(...keys);
    } catch (error) {
      this.logger.warn({ err: error }, 'credential cache unavailable, reading PostgreSQL');
      return undefined;
    }
  }

  private async writeCache(key: string, value: object): Promise<void> {
    await this.redis.set(key, JSON.stringify(value), 'EX', CACHE_TTL_SECONDS).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'credential cache fill failed');
    });
  }
}
