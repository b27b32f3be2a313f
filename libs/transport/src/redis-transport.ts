import { ClientRedis, CustomStrategy, RedisOptions } from '@nestjs/microservices';
import type Redis from 'ioredis';
import { ExactlyOnceRedisServer } from './exactly-once-redis.server';
import { attachPropagatedHeaders } from './message-headers';
import { reconnectDelayMs, replyChannel, requestChannel, TransportSettings } from './transport-settings';

type RedisConnectionOptions = NonNullable<RedisOptions['options']>;

/**
 * ioredis options of the transport's connections, from REDIS_URL. Nothing
 * sent over the transport is persisted: side effects that must survive a
 * crash go through a durable job or outbox instead.
 */
export function redisConnectionOptions(redisUrl: string): RedisConnectionOptions {
  const url = new URL(redisUrl);
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : 6379,
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    db: url.pathname.length > 1 ? Number(url.pathname.slice(1)) : undefined,
    tls: url.protocol === 'rediss:' ? {} : undefined,
    // Read by Nest only to decide whether to retry at all; the delays come from reconnectDelayMs.
    retryAttempts: Number.MAX_SAFE_INTEGER,
  };
}

/**
 * The calling side (services-api): Nest's Redis client with every request
 * and reply channel in the environment's namespace, reconnecting for ever,
 * each message carrying the request id and trace context of its sender.
 */
export class NamespacedRedisClient extends ClientRedis {
  constructor(private readonly settings: TransportSettings) {
    super(redisConnectionOptions(settings.redisUrl));
    this.setOnDispatchHook(attachPropagatedHeaders);
  }

  override getRequestPattern(pattern: string): string {
    return requestChannel(this.settings.namespace, pattern);
  }

  override getReplyPattern(pattern: string): string {
    return replyChannel(this.settings.namespace, pattern);
  }

  override createRetryStrategy(attempt: number): number | undefined {
    return this.isManuallyClosed ? undefined : reconnectDelayMs(attempt);
  }

  /** The Redis connections (publisher, subscriber) once connected, for readiness. */
  connections(): Redis[] {
    return this.pubClient && this.subClient ? [this.pubClient, this.subClient] : [];
  }
}

/** The listening side (core-tenants): each request handled by exactly one replica, in the namespace. */
export function exactlyOnceRedisListener(settings: TransportSettings): CustomStrategy & { strategy: ExactlyOnceRedisServer } {
  return { strategy: new ExactlyOnceRedisServer(settings, redisConnectionOptions(settings.redisUrl)) };
}
