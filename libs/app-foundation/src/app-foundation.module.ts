import { DynamicModule, Global, Module } from '@nestjs/common';
import { AuditModule } from '@platform/audit';
import { AuthCacheSettings, AuthModule, OperatorTokenSettings, standingInvalidationChannel } from '@platform/auth';
import { accessLogSettingsOf, BaseConfig, parseRateLimit, redisTopologyOf } from '@platform/config';
import { DatabaseModule } from '@platform/database';
import { HealthModule } from '@platform/health';
import { MetricsModule, ObservabilityModule } from '@platform/observability';
import { RedisModule } from '@platform/redis';
import { Clock } from '@platform/scheduling';
import { RequestBudgetsModule } from '@platform/request-budgets';
import { TransportReadinessModule, transportNamespaceOf } from '@platform/transport';
import { outboxCommittedChannel, WebhooksModule } from '@platform/webhooks';
import { DatabasePoolMetrics } from './database-pool-metrics';

export interface AppFoundationOptions {
  /** The app's name: in every log line, in pg_stat_activity and in Redis CLIENT LIST. */
  app: string;
  config: BaseConfig;
  operatorTokens: OperatorTokenSettings;
  /** Whether the app writes the tenant standings it looks up to Redis (default) or only reads them there. */
  standingCopies?: 'read-write' | 'read-only';
}

/**
 * What every app of the platform has, set up once: JSON logs, metrics, the
 * PostgreSQL pool (and its gauges), the Redis client, authentication, the
 * request budgets of authenticated operations and the small rate limits, the health endpoints and the
 * readiness of the transport between apps (for the apps that have one), the
 * audit log, the webhook outbox and the Clock.
 */
@Global()
@Module({})
export class AppFoundationModule {
  static forRoot({ app, config, operatorTokens, standingCopies }: AppFoundationOptions): DynamicModule {
    return {
      module: AppFoundationModule,
      imports: [
        ObservabilityModule.forRoot({ level: config.LOG_LEVEL, app, accessLog: accessLogSettingsOf(config) }),
        MetricsModule.forRoot(app),
        DatabaseModule.forRoot({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, applicationName: app }),
        RedisModule.forRoot(redisTopologyOf(config), app),
        RequestBudgetsModule.forRoot({ app, principal: parseRateLimit(config.RATE_LIMIT_PRINCIPAL), tenant: parseRateLimit(config.RATE_LIMIT_TENANT) }),
        AuthModule.forRoot(
          operatorTokens,
          new AuthCacheSettings(
            { current: config.CACHE_SECRET, previous: config.CACHE_SECRET_PREVIOUS },
            config.AUTH_UNKNOWN_CREDENTIAL_CACHE_SECONDS,
            standingInvalidationChannel(transportNamespaceOf(config)),
            standingCopies,
          ),
        ),
        AuditModule.forApp(app),
        WebhooksModule.forApp(app, outboxCommittedChannel(transportNamespaceOf(config))),
        TransportReadinessModule,
        HealthModule,
      ],
      providers: [DatabasePoolMetrics, Clock],
      exports: [DatabaseModule, Clock],
    };
  }
}
