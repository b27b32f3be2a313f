import { DynamicModule, Module } from '@nestjs/common';
import { AppFoundationModule } from '@platform/app-foundation';
import { CoreTenantsConfig } from './config';
import { OperatorsModule } from './operators/operators.module';
import { PluginConnectionsModule } from './plugin-connections/plugin-connections.module';
import { SIGN_IN_LIMITS, SignInLimits } from './sign-in/sign-in-operator.use-case';
import { SignInModule } from './sign-in/sign-in.module';
import { SigningKey } from './signing/signing-key';
import { SigningModule } from './signing/signing.module';
import { TenantsModule } from './tenants/tenants.module';
import { TransportModule } from './transport/transport.module';

@Module({})
export class CoreTenantsModule {
  static forRoot(config: CoreTenantsConfig, signingKey: SigningKey): DynamicModule {
    const signInLimits: SignInLimits = {
      perAddress: { name: 'sign-in:address', limit: config.SIGN_IN_ATTEMPTS_PER_ADDRESS, windowSeconds: config.SIGN_IN_WINDOW_SECONDS },
      perIp: { name: 'sign-in:ip', limit: config.SIGN_IN_ATTEMPTS_PER_IP, windowSeconds: config.SIGN_IN_WINDOW_SECONDS },
    };
    const claims = { issuer: config.OPERATOR_JWT_ISSUER, audience: config.OPERATOR_JWT_AUDIENCE, ttlSeconds: config.OPERATOR_JWT_TTL_SECONDS };
    return {
      module: CoreTenantsModule,
      global: true,
      imports: [
        AppFoundationModule.forRoot({
          app: 'core-tenants',
          config,
          // core-tenants verifies operator tokens with its own public key: no JWKS round trip.
          operatorTokens: { issuer: claims.issuer, audience: claims.audience, publicKey: signingKey.publicKey },
        }),
        SigningModule.forRoot(signingKey, claims, config.TRACE_TOKEN_TTL_SECONDS),
        TenantsModule,
        SignInModule,
        OperatorsModule,
        PluginConnectionsModule.forRoot(config),
        TransportModule,
      ],
      providers: [{ provide: SIGN_IN_LIMITS, useValue: signInLimits }],
      exports: [SIGN_IN_LIMITS],
    };
  }
}
