import { DynamicModule, Global, Inject, Injectable, Logger, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { once } from 'node:events';
import Redis from 'ioredis';
import { createRedisClient, RedisTopology } from './redis-connections';

/** Injection token of the shared ioredis client. */
export const REDIS = Symbol('REDIS');

/** How long an app's start waits for its first Redis connection before going on without it. */
const FIRST_CONNECTION_WAIT_MS = 3_000;

/**
 * Waits, at start, for the first connection, because commands are not queued
 * while connecting. Only briefly: each app's main.ts has already refused to
 * start if Redis accepted no connection at all, so this only covers the
 * moment until the client is connected. If Redis goes away just then, the app
 * starts anyway, reports not ready, and serves once Redis comes back.
 */
@Injectable()
class RedisLifecycle implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Redis');

  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async onModuleInit(): Promise<void> {
    this.reportOutages();
    if (this.redis.status === 'ready') return;
    const timeout = AbortSignal.timeout(FIRST_CONNECTION_WAIT_MS);
    await once(this.redis, 'ready', { signal: timeout }).catch(() => {
      this.logger.warn(`not connected after ${FIRST_CONNECTION_WAIT_MS} ms; starting anyway, not ready until it connects`);
    });
  }

  /** One line when Redis goes away and one when it is back, rather than one per reconnection attempt. */
  private reportOutages(): void {
    let away = false;
    this.redis.on('error', (error: Error) => {
      if (away) return;
      away = true;
      this.logger.warn({ err: error }, 'Redis unavailable; reconnecting');
    });
    this.redis.on('ready', () => {
      if (!away) return;
      away = false;
      this.logger.log('Redis connection restored');
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

@Global()
@Module({})
export class RedisModule {
  static forRoot(topology: RedisTopology, connectionName: string): DynamicModule {
    return {
      module: RedisModule,
      providers: [
        { provide: REDIS, useFactory: () => createRedisClient(topology, connectionName) },
        RedisLifecycle,
      ],
      exports: [REDIS],
    };
  }
}
