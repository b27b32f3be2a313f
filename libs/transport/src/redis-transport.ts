import { CustomStrategy, RedisOptions, Transport } from '@nestjs/microservices';
import { ExactlyOnceRedisServer } from './exactly-once-redis.server';

/**
 * Options of Nest's Redis transport (pub/sub request-response) from REDIS_URL.
 * Nothing sent over it is persisted: side effects that must survive a crash
 * go through a durable job instead.
 */
export function redisTransportOptions(redisUrl: string): RedisOptions {
  const url = new URL(redisUrl);
  return {
    transport: Transport.REDIS,
    options: {
      host: url.hostname,
      port: url.port ? Number(url.port) : 6379,
      username: url.username ? decodeURIComponent(url.username) : undefined,
      password: url.password ? decodeURIComponent(url.password) : undefined,
      db: url.pathname.length > 1 ? Number(url.pathname.slice(1)) : undefined,
      tls: url.protocol === 'rediss:' ? {} : undefined,
      retryAttempts: 10,
      retryDelay: 500,
    },
  };
}

/** The listener side: the same transport, but each request handled by exactly one replica. */
export function exactlyOnceRedisListener(redisUrl: string): CustomStrategy {
  return { strategy: new ExactlyOnceRedisServer(redisTransportOptions(redisUrl).options ?? {}) };
}
