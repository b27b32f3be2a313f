import { Inject, Injectable, Logger } from '@nestjs/common';
import { PlatformMetrics } from '@platform/observability';
import { REDIS, slotTag } from '@platform/redis';
import type Redis from 'ioredis';
import { AuthCacheSettings } from './auth-cache-settings';
import { AuthReadsRepository } from './auth-reads.repository';
import { CacheSeal } from './cache-seal';
import { ExpiringCache } from './expiring-cache';
import { readRedisCopy } from './redis-copy';
import { StandingInvalidations } from './standing-invalidations';

/** What verifying a plugin or connection token needs, as cached. */
export interface StoredPluginSecret {
  tokenHash: string;
}

export interface StoredConnectionSecret {
  tokenHash: string;
  tenantID: string;
  pluginID: string;
}

/** Seconds a credential's cache entry lives; StandingInvalidations remembers changes longer than this. */
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

/** Entries are sealed (cache-seal.ts); v1 entries, unsealed, are never read. */
const pluginKey = (id: string) => `auth:v2:plugin:${id}`;
/** A connection's entry, tombstone and removal mark are read and written together: one hash tag, one cluster slot. */
export const connectionKey = (id: string) => `auth:v2:connection:${slotTag('c', id)}`;
export const connectionTombstoneKey = (id: string) => `auth:v2:connection-revoked:${slotTag('c', id)}`;
/** Only ever sends lookups to PostgreSQL, so a forged one grants and refuses nothing: left unsealed. */
export const connectionRemovalKey = (id: string) => `auth:v2:connection-removing:${slotTag('c', id)}`;
/**
 * A connection's entry as the previous release named it, before hash tags.
 * Removals still delete it, so a replica of that release still running
 * during a rolling upgrade stops serving a removed connection from it.
 */
const untaggedConnectionKey = (id: string) => `auth:v2:connection:${id}`;

/** The sealed value of an id PostgreSQL does not know (a negative entry). */
const UNKNOWN = 'null';
const REVOKED = 'revoked';

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
 *
 * Every value read from Redis is sealed (CacheSeal): one that does not verify
 * is a miss, so writing to Redis grants nothing PostgreSQL did not. Ids
 * PostgreSQL does not know are remembered for `unknownCredentialTtlSeconds`
 * (sealed too), so garbage credentials cost no query on repeat; an install
 * clears its connection's entry (`forgetUnknownConnection`).
 *
 * A connection's entry is only valid for the state it was read from, as a
 * standing copy is: its seal says when its PostgreSQL read began, and a
 * removal tells every replica that the plugin's standing on the tenant
 * changed (StandingInvalidations), so an entry sealed before the last change
 * of `plugin:<pluginID>` on its tenant, or before this replica subscribed,
 * is a miss (`mayTrustCopy`). A copy taken before a removal and written back
 * after it, with the tombstone and the removal mark deleted, is read through
 * to PostgreSQL, which answers: removed.
 *
 * The fill is a plain SET of the entry's own key, after a read that saw
 * neither a tombstone nor a removal mark: the apps that may only read those
 * keys (plugins-helpdesk, realtime-gateway, k8s/redis/users.acl) must fill
 * too. A removal that begins between that read and the SET is still seen:
 * lookups check the mark and the tombstone before the entry, and the entry,
 * sealed before the removal's change, is a miss once it is heard.
 */
@Injectable()
export class CredentialStore {
  private readonly logger = new Logger(CredentialStore.name);
  private readonly pluginSecrets = new ExpiringCache<StoredPluginSecret>(LOCAL_PLUGIN_SECRETS);

  constructor(
    private readonly reads: AuthReadsRepository,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly seal: CacheSeal,
    private readonly settings: AuthCacheSettings,
    private readonly invalidations: StandingInvalidations,
    private readonly metrics: PlatformMetrics,
  ) {}

  /**
   * Plugin secrets are also kept in this process until their Redis copy
   * expires: nothing revokes a plugin's cached secret early, so this changes
   * nothing of when a new plugin token takes over (at most CACHE_TTL_SECONDS),
   * and spares a Redis round trip on most plugin requests. Connection secrets
   * are never kept here: their revocation must hold at once on every replica.
   * Neither are unknown ids: a plugin registered meanwhile must be seen as soon
   * as its negative entry lapses in Redis.
   */
  async findPlugin(pluginID: string): Promise<StoredPluginSecret | undefined> {
    const kept = this.pluginSecrets.get(pluginID, Date.now());
    if (kept) return this.answeredBy('plugin', 'cache', kept);
    const key = pluginKey(pluginID);
    const readAt = Date.now();
    const copy = await readRedisCopy(this.redis, key).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'credential cache unavailable, reading PostgreSQL');
      return undefined;
    });
    const value = copy && this.seal.open('plugin', key, copy.value, readAt);
    if (value === UNKNOWN) return this.answeredBy('plugin', 'cache', undefined);
    if (value !== undefined) {
      const secret = JSON.parse(value) as StoredPluginSecret;
      if (copy?.expiresAtMs !== undefined) this.pluginSecrets.set(pluginID, secret, copy.expiresAtMs);
      return this.answeredBy('plugin', 'cache', secret);
    }
    const tokenHash = await this.answeredBy('plugin', 'postgresql', this.reads.pluginTokenHash(pluginID));
    if (tokenHash === undefined) {
      await this.writeCache(key, UNKNOWN, this.settings.unknownCredentialTtlSeconds);
      return undefined;
    }
    const secret: StoredPluginSecret = { tokenHash };
    await this.writeCache(key, JSON.stringify(secret), CACHE_TTL_SECONDS);
    this.pluginSecrets.set(pluginID, secret, readAt + CACHE_TTL_SECONDS * 1000);
    return secret;
  }

  async findLiveConnection(pluginConnectionID: string): Promise<StoredConnectionSecret | undefined> {
    const keys = [connectionKey(pluginConnectionID), connectionTombstoneKey(pluginConnectionID), connectionRemovalKey(pluginConnectionID)];
    const readAt = Date.now();
    const [entry, tombstone, removal] = (await this.readCache(keys)) ?? [];
    if (tombstone && this.seal.open('connection-revoked', keys[1], tombstone, readAt) === REVOKED) return this.answeredBy('connection', 'cache', undefined);
    const removalInProgress = Boolean(removal);
    const cached = entry && !removalInProgress ? this.cachedConnection(keys[0], entry, readAt) : undefined;
    if (cached === UNKNOWN) return this.answeredBy('connection', 'cache', undefined);
    if (cached !== undefined) return this.answeredBy('connection', 'cache', cached);
    const secret = await this.answeredBy('connection', 'postgresql', this.reads.liveConnectionSecret(pluginConnectionID));
    const ttlSeconds = secret ? CACHE_TTL_SECONDS : this.settings.unknownCredentialTtlSeconds;
    if (!removalInProgress && ttlSeconds > 0) {
      // Sealed as of `readAt`, before the PostgreSQL read began: a removal committed meanwhile makes it a miss.
      await this.writeSealed(keys[0], secret ? JSON.stringify(secret) : UNKNOWN, readAt + ttlSeconds * 1000, ttlSeconds);
    }
    return secret;
  }

  /**
   * After an install commits: drops a negative entry left by a lookup of the
   * new id, so its token works at once on every replica. Best effort: the
   * install has committed and its token must reach the client; an entry left
   * by a Redis failure lapses within `unknownCredentialTtlSeconds`.
   */
  async forgetUnknownConnection(pluginConnectionID: string): Promise<void> {
    await this.redis.del(connectionKey(pluginConnectionID)).catch((error: unknown) => {
      this.logger.warn({ err: error, pluginConnectionID }, 'negative credential entry not cleared; it lapses on its own');
    });
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
    await this.redis.del(untaggedConnectionKey(pluginConnectionID));
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
      .set(
        connectionTombstoneKey(pluginConnectionID),
        this.seal.seal(connectionTombstoneKey(pluginConnectionID), REVOKED, Date.now() + TOMBSTONE_TTL_SECONDS * 1000),
        'EX',
        TOMBSTONE_TTL_SECONDS,
      )
      .del(connectionKey(pluginConnectionID))
      .exec();
    await this.redis.del(untaggedConnectionKey(pluginConnectionID));
  }

  private async readCache(keys: string[]): Promise<(string | null)[] | undefined> {
    try {
      return await this.redis.mget(...keys);
    } catch (error) {
      this.logger.warn({ err: error }, 'credential cache unavailable, reading PostgreSQL');
      return undefined;
    }
  }

  /**
   * A connection entry's secret, UNKNOWN, or undefined for a miss: not
   * verified, lapsed, or sealed before a change of the plugin's standing on
   * the entry's tenant (a removal) that this replica heard, or may have missed.
   */
  private cachedConnection(key: string, stored: string, readAt: number): StoredConnectionSecret | typeof UNKNOWN | undefined {
    const opened = this.seal.openEntry('connection', key, stored, readAt);
    if (!opened) return undefined;
    // A negative entry written back can only refuse, as whoever writes Redis already can.
    if (opened.value === UNKNOWN) return UNKNOWN;
    const secret = JSON.parse(opened.value) as StoredConnectionSecret;
    const sealedAt = opened.expiresAtMs - CACHE_TTL_SECONDS * 1000;
    return this.invalidations.mayTrustCopy({ tenantID: secret.tenantID, subject: `plugin:${secret.pluginID}` }, sealedAt) ? secret : undefined;
  }

  /** Counts who answered a lookup (`platform_credential_lookups_total`), when called, and passes the answer (or its promise) on. */
  private answeredBy<T>(credential: 'plugin' | 'connection', source: 'cache' | 'postgresql', answer: T): T {
    this.metrics.credentialLookup(credential, source);
    return answer;
  }

  private async writeCache(key: string, value: string, ttlSeconds: number): Promise<void> {
    if (ttlSeconds <= 0) return;
    await this.writeSealed(key, value, Date.now() + ttlSeconds * 1000, ttlSeconds);
  }

  private async writeSealed(key: string, value: string, expiresAtMs: number, ttlSeconds: number): Promise<void> {
    await this.redis.set(key, this.seal.seal(key, value, expiresAtMs), 'EX', ttlSeconds).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'credential cache fill failed');
    });
  }
}
