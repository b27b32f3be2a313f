import { Inject, Injectable, Logger } from '@nestjs/common';
import { MAX_TRACE_TOKEN_PLUGINS } from '@platform/contracts';
import { REDIS, tenantTag } from '@platform/redis';
import type Redis from 'ioredis';
import { TRACE_SETTINGS, TraceSettings } from './trace-settings';
import { TraceTokensClient } from './trace-tokens.client';

/** A session's tokens are read (MGET) and written (MULTI) together: the tenant's hash tag keeps them in one cluster slot. */
export const tokenKey = (tenantID: string, sessionID: string, pluginID: string) => `traces:v1:token:${tenantTag(tenantID)}:${sessionID}:${pluginID}`;

/** A token is dropped from the cache this long before it expires, so a provider never receives one about to lapse. */
export const TOKEN_EXPIRY_MARGIN_SECONDS = 60;

/**
 * The credentials sent to trace providers: short-lived JWTs only core-tenants
 * can sign (docs/processing-traces.md, credentials). Cached in Redis per
 * tenant, session and plugin until shortly before they expire, so opening a
 * conversation costs at most one transport round trip for all its providers
 * and the requests after it none.
 */
@Injectable()
export class TraceCredentials {
  private readonly logger = new Logger(TraceCredentials.name);

  constructor(
    private readonly traceTokens: TraceTokensClient,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(TRACE_SETTINGS) private readonly settings: TraceSettings,
  ) {}

  /**
   * Tokens by pluginID. A plugin left out could not get one (core-tenants
   * unavailable, or the plugin was uninstalled a moment ago); the caller
   * reports it as a failed source rather than failing the request.
   */
  async tokensFor(tenantID: string, sessionID: string, pluginIDs: string[]): Promise<Map<string, string>> {
    const tokens = new Map<string, string>();
    if (pluginIDs.length === 0) return tokens;
    const cached = await this.redis.mget(pluginIDs.map((pluginID) => tokenKey(tenantID, sessionID, pluginID))).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'trace token cache unavailable');
      return pluginIDs.map(() => null);
    });
    const missing: string[] = [];
    pluginIDs.forEach((pluginID, index) => (cached[index] ? tokens.set(pluginID, cached[index]) : missing.push(pluginID)));

    for (let offset = 0; offset < missing.length; offset += MAX_TRACE_TOKEN_PLUGINS) {
      const batch = missing.slice(offset, offset + MAX_TRACE_TOKEN_PLUGINS);
      try {
        const reply = await this.traceTokens.issue({ tenantID, sessionID, pluginIDs: batch }, this.settings.providerTimeoutMs);
        const write = this.redis.multi();
        for (const issued of reply.tokens) {
          tokens.set(issued.pluginID, issued.token);
          const keepSeconds = issued.expiresInSeconds - Math.min(TOKEN_EXPIRY_MARGIN_SECONDS, Math.floor(issued.expiresInSeconds / 2));
          write.set(tokenKey(tenantID, sessionID, issued.pluginID), issued.token, 'EX', keepSeconds);
        }
        await write.exec().catch((error: unknown) => this.logger.warn({ err: error }, 'trace token cache unavailable'));
      } catch (error) {
        this.logger.warn({ err: error, pluginIDs: batch }, 'no trace-provider credentials from core-tenants');
      }
    }
    return tokens;
  }
}
