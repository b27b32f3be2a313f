import { DynamicModule, Global, Module } from '@nestjs/common';
import { RequestCharges } from '@platform/auth';
import { PlatformMetrics } from '@platform/observability';
import { REDIS } from '@platform/redis';
import type Redis from 'ioredis';
import { FixedWindowCounters } from './fixed-window-counters';
import { LeasedWindows } from './leased-windows';
import { RateLimiter } from './rate-limiter';
import { REQUEST_QUOTA_SETTINGS, RequestQuotas, RequestQuotaSettings } from './request-quotas';

/**
 * The request budgets of authenticated operations (answering libs/auth's
 * `RequestCharges`) and the small rate limits, over one fixed-window counter.
 * Needs the REDIS client and PlatformMetrics.
 */
@Global()
@Module({})
export class RequestBudgetsModule {
  static forRoot(quotas: RequestQuotaSettings): DynamicModule {
    return {
      module: RequestBudgetsModule,
      providers: [
        { provide: FixedWindowCounters, useFactory: (redis: Redis) => new FixedWindowCounters(redis), inject: [REDIS] },
        {
          provide: RateLimiter,
          useFactory: (redis: Redis, counters: FixedWindowCounters, metrics: PlatformMetrics) => new RateLimiter(redis, counters, metrics),
          inject: [REDIS, FixedWindowCounters, PlatformMetrics],
        },
        // The budgets spend leased blocks here; the rate limits above stay exact in Redis.
        { provide: LeasedWindows, useFactory: (counters: FixedWindowCounters) => new LeasedWindows(counters), inject: [FixedWindowCounters] },
        { provide: REQUEST_QUOTA_SETTINGS, useValue: quotas },
        RequestQuotas,
        { provide: RequestCharges, useExisting: RequestQuotas },
      ],
      exports: [RateLimiter, RequestQuotas, RequestCharges],
    };
  }
}
