import { DynamicModule, Global, Module } from '@nestjs/common';
import { DocumentBuilder } from '@nestjs/swagger';
import { PlatformMetrics } from '@platform/observability';
import { AuthCacheSettings } from './auth-cache-settings';
import { AuthGuard } from './auth.guard';
import { AuthReadsRepository } from './auth-reads.repository';
import { Authenticator } from './authenticator';
import { CacheSeal } from './cache-seal';
import { ConnectTickets } from './connect-tickets';
import { CredentialStore } from './credential-store';
import { OperatorTokenSettings, OperatorTokenVerifier } from './operator-token.verifier';
import { StandingInvalidations } from './standing-invalidations';
import { TenantAccessService } from './tenant-access.service';

/** Needs the app's TypeORM DataSource, the REDIS client, PlatformMetrics and a RequestCharges (libs/request-budgets). */
@Global()
@Module({})
export class AuthModule {
  static forRoot(settings: OperatorTokenSettings, cache: AuthCacheSettings): DynamicModule {
    return {
      module: AuthModule,
      providers: [
        { provide: OperatorTokenVerifier, useFactory: () => new OperatorTokenVerifier(settings) },
        { provide: AuthCacheSettings, useValue: cache },
        {
          provide: CacheSeal,
          useFactory: (metrics: PlatformMetrics) => new CacheSeal(cache.secrets, (name) => metrics.cacheEntryRefused(name)),
          inject: [PlatformMetrics],
        },
        AuthReadsRepository,
        CredentialStore,
        Authenticator,
        AuthGuard,
        StandingInvalidations,
        TenantAccessService,
        ConnectTickets,
      ],
      exports: [OperatorTokenVerifier, CredentialStore, Authenticator, AuthGuard, TenantAccessService, StandingInvalidations, CacheSeal, ConnectTickets],
    };
  }
}

/** Documents the plugin and plugin-connection profiles in an app's OpenAPI document. */
export function describePluginAuthSchemes(builder: DocumentBuilder): DocumentBuilder {
  return builder
    .addApiKey({ type: 'apiKey', in: 'header', name: 'Authorization', description: 'Plugin base64(pluginID:pluginToken)' }, 'plugin')
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'Authorization', description: 'PluginConnection base64(pluginConnectionID:pluginConnectionToken)' },
      'pluginConnection',
    );
}
