import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { RateLimiter } from './rate-limiter';

/** Injection token of the shared ioredis client. */
export const REDIS = Symbol('REDIS');

export function createRedisClient(url: string, connectionName: string): Redis {
  return new Redis(url, {
    connectionName,
    // Fail commands fast while Redis is away instead of queueing them for ever:
    // callers turn the failure into an error in the envelope.
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    connectTimeout: 2_000,
  });
}

@Injectable()
class RedisShutdown implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

@Global()
@Module({})
export class RedisModule {
  static forRoot(url: string, connectionName: string): DynamicModule {
    return {
      module: RedisModule,
      providers: [
        { provide: REDIS, useFactory: () => createRedisClient(url, connectionName) },
        { provide: RateLimiter, useFactory: (redis: Redis) => new RateLimiter(redis), inject: [REDIS] },
        RedisShutdown,
      ],
      exports: [REDIS, RateLimiter],
    };
  }
}
