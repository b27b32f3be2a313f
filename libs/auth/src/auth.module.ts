import { DynamicModule, Global, Module } from '@nestjs/common';
import { DocumentBuilder } from '@nestjs/swagger';
import { AuthGuard } from './auth.guard';
import { AuthReadsRepository } from './auth-reads.repository';
import { Authenticator } from './authenticator';
import { CredentialStore } from './credential-store';
import { OperatorTokenSettings, OperatorTokenVerifier } from './operator-token.verifier';
import { REQUEST_QUOTA_SETTINGS, RequestQuotas, RequestQuotaSettings } from './request-quotas';
import { TenantAccessService } from './tenant-access.service';

/** Needs the app's TypeORM DataSource, the REDIS client and its QuotaCounters. */
@Global()
@Module({})
export class AuthModule {
  static forRoot(settings: OperatorTokenSettings, quotas: RequestQuotaSettings): DynamicModule {
    return {
      module: AuthModule,
      providers: [
        { provide: OperatorTokenVerifier, useFactory: () => new OperatorTokenVerifier(settings) },
        AuthReadsRepository,
        CredentialStore,
        Authenticator,
        { provide: REQUEST_QUOTA_SETTINGS, useValue: quotas },
        RequestQuotas,
        AuthGuard,
        TenantAccessService,
      ],
      exports: [OperatorTokenVerifier, CredentialStore, Authenticator, RequestQuotas, AuthGuard, TenantAccessService],
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
