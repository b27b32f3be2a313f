import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { DatabaseModule } from '@platform/database';
import { HealthModule } from '@platform/health';
import { ObservabilityModule } from '@platform/observability';
import { RedisModule } from '@platform/redis';
import { PluginsHelpdeskConfig } from './config';

@Module({})
export class PluginsHelpdeskModule {
  static forRoot(config: PluginsHelpdeskConfig): DynamicModule {
    return {
      module: PluginsHelpdeskModule,
      imports: [
        ObservabilityModule.forRoot({ level: config.LOG_LEVEL, app: 'plugins-helpdesk' }),
        DatabaseModule.forRoot({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, applicationName: 'plugins-helpdesk' }),
        RedisModule.forRoot(config.REDIS_URL, 'plugins-helpdesk'),
        AuthModule.forRoot({
          issuer: config.OPERATOR_JWT_ISSUER,
          audience: config.OPERATOR_JWT_AUDIENCE,
          publicKey: config.OPERATOR_JWT_PUBLIC_KEY,
          jwksUrl: config.OPERATOR_JWKS_URL,
        }),
        HealthModule,
      ],
    };
  }
}
