import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { DatabaseModule } from '@platform/database';
import { HealthModule } from '@platform/health';
import { ObservabilityModule } from '@platform/observability';
import { RedisModule } from '@platform/redis';
import { TransportClientModule } from '@platform/transport';
import { ServicesApiConfig } from './config';
import { PluginConnectionsModule } from './plugin-connections/plugin-connections.module';
import { JobsModule } from './jobs/jobs.module';
import { SignUpModule } from './sign-up/sign-up.module';
import { ContactSessionsModule } from './contact-sessions/contact-sessions.module';
import { NotificationsModule } from './notifications/notifications.module';
import { ShortcutsModule } from './shortcuts/shortcuts.module';
import { ProcessingTracesModule } from './processing-traces/processing-traces.module';

@Module({})
export class ServicesApiModule {
  static forRoot(config: ServicesApiConfig): DynamicModule {
    return {
      module: ServicesApiModule,
      imports: [
        ObservabilityModule.forRoot({ level: config.LOG_LEVEL, app: 'services-api' }),
        DatabaseModule.forRoot({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, applicationName: 'services-api' }),
        RedisModule.forRoot(config.REDIS_URL, 'services-api'),
        AuthModule.forRoot({
          issuer: config.OPERATOR_JWT_ISSUER,
          audience: config.OPERATOR_JWT_AUDIENCE,
          publicKey: config.OPERATOR_JWT_PUBLIC_KEY,
          jwksUrl: config.OPERATOR_JWKS_URL,
        }),
        TransportClientModule.forRoot(config.REDIS_URL, config.CORE_TENANTS_RPC_TIMEOUT_MS),
        JobsModule.forRoot({
          databaseUrl: config.DATABASE_URL,
          pollingIntervalSeconds: config.JOBS_POLLING_INTERVAL_SECONDS,
          shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
        }),
        HealthModule,
        PluginConnectionsModule,
        SignUpModule.forRoot(config),
        ShortcutsModule,
        ContactSessionsModule,
        NotificationsModule,
        ProcessingTracesModule.forRoot({
          providerTimeoutMs: config.TRACE_PROVIDER_TIMEOUT_MS,
          retrievalCacheTtlSeconds: config.TRACE_RETRIEVAL_CACHE_TTL_SECONDS,
        }),
      ],
    };
  }
}
