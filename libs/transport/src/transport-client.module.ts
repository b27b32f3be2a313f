import { DynamicModule, Global, Module } from '@nestjs/common';
import { PlatformMetrics } from '@platform/observability';
import { NamespacedRedisClient } from './redis-transport';
import { TransportClient } from './transport-client';
import { TransportReadiness } from './transport-readiness';
import { TransportSettings } from './transport-settings';

/** Provides a TransportClient that talks to core-tenants over the Redis transport, watched by readiness. */
@Global()
@Module({})
export class TransportClientModule {
  static forRoot(settings: TransportSettings, timeoutMs: number): DynamicModule {
    return {
      module: TransportClientModule,
      providers: [
        {
          provide: TransportClient,
          useFactory: (readiness: TransportReadiness, metrics: PlatformMetrics) => {
            const proxy = new NamespacedRedisClient(settings, metrics);
            readiness.watch('transport client', () => proxy.connections());
            return new TransportClient(proxy, timeoutMs, metrics);
          },
          inject: [TransportReadiness, PlatformMetrics],
        },
      ],
      exports: [TransportClient],
    };
  }
}
