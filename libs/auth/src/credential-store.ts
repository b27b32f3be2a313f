import { Inject, Injectable, Logger } from '@nestjs/common';
import { REDIS } from '@platform/redis';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
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

/** Plugin secrets kept in-process at once, per replica. */
const LOCAL_PLUGIN_SECRETS = 10_000;

const pluginKey = (id: string) => `auth:v1:plugin:${id}`;
const connectionKey = (id: string) => `auth:v1:connection:${id}`;
const connectionTombstoneKey = (id: string) => `auth:v1:connection-revoked:${id}`;

/**
 * Looks up the stored hash of plugin and connection tokens with a short Redis
 * cache in front of PostgreSQL, so the hot path costs one Redis round trip.
 *
 * Revocation is immediate on every replica: `revokeConnection` writes a
 * tombstone that every lookup reads in the same round trip as the cache, so a
 * lookup racing the revocation cannot bring the entry back. When Redis is
 * unavailable, lookups go to PostgreSQL, which is authoritative.
 */
@Injectable()
export class CredentialStore {
  private readonly logger = new Logger(CredentialStore.name);
  private readonly pluginSecrets = new ExpiringCache<StoredPluginSecret>(LOCAL_PLUGIN_SECRETS);

  constructor(
    private readonly dataSource: DataSource,
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
    const rows: { token_hash: string }[] = await this.dataSource.query('SELECT token_hash FROM plugins WHERE id = $1', [pluginID]);
    if (rows.length === 0) return undefined;
    const secret: StoredPluginSecret = { tokenHash: rows[0].token_hash };
    await this.writeCache(pluginKey(pluginID), secret);
    this.pluginSecrets.set(pluginID, secret, readAt + CACHE_TTL_SECONDS * 1000);
    return secret;
  }

  async findLiveConnection(pluginConnectionID: string): Promise<StoredConnectionSecret | undefined> {
    const cached = await this.readCache([connectionKey(pluginConnectionID), connectionTombstoneKey(pluginConnectionID)]);
    if (cached?.[1]) return undefined;
    if (cached?.[0]) return JSON.parse(cached[0]) as StoredConnectionSecret;
    const rows: { token_hash: string; tenant_id: string; plugin_id: string }[] = await this.dataSource.query(
      `SELECT token_hash, tenant_id, plugin_id FROM plugin_connections WHERE id = $1 AND status = 'live'`,
      [pluginConnectionID],
    );
    if (rows.length === 0) return undefined;
    const secret: StoredConnectionSecret = { tokenHash: rows[0].token_hash, tenantID: rows[0].tenant_id, pluginID: rows[0].plugin_id };
    // Only fill the cache if no tombstone appeared meanwhile (NX + tombstone check in one script).
    await this.redis
      .eval(
        `if redis.call('EXISTS', KEYS[2]) == 0 then redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) end return 1`,
        2,
        connectionKey(pluginConnectionID),
        connectionTombstoneKey(pluginConnectionID),
        JSON.stringify(secret),
        CACHE_TTL_SECONDS,
      )
      .catch((error: unknown) => this.logger.warn({ err: error }, 'credential cache fill failed'));
    return secret;
  }

  /**
   * Makes a connection's token stop working at once on every replica. Call it
   * after the removal is committed; it throws if Redis cannot record the
   * tombstone, so the caller can retry rather than leave a cached token alive.
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
