import { DynamicModule, Module } from '@nestjs/common';
import { AppFoundationModule } from '@platform/app-foundation';
import { PasswordWork } from '@platform/auth';
import { CoreTenantsConfig } from './config';
import { MembersModule } from './members/members.module';
import { OperatorsModule } from './operators/operators.module';
import { PluginConnectionsModule } from './plugin-connections/plugin-connections.module';
import { KNOWN_CLIENT_TTL_SECONDS } from './sign-in/known-sign-in-clients';
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
      perAddressAndClient: { name: 'sign-in:address-client', limit: config.SIGN_IN_ATTEMPTS_PER_ADDRESS, windowSeconds: config.SIGN_IN_WINDOW_SECONDS },
      perAddress: { name: 'sign-in:address', limit: config.SIGN_IN_ATTEMPTS_PER_ADDRESS_CEILING, windowSeconds: config.SIGN_IN_WINDOW_SECONDS },
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
        MembersModule,
        PluginConnectionsModule.forRoot(config),
        TransportModule,
      ],
      providers: [
        { provide: SIGN_IN_LIMITS, useValue: signInLimits },
        { provide: KNOWN_CLIENT_TTL_SECONDS, useValue: config.SIGN_IN_KNOWN_CLIENT_DAYS * 86_400 },
        { provide: PasswordWork, useValue: new PasswordWork({ concurrency: config.PASSWORD_HASH_CONCURRENCY, queue: config.PASSWORD_HASH_QUEUE }) },
      ],
      exports: [SIGN_IN_LIMITS, KNOWN_CLIENT_TTL_SECONDS, PasswordWork],
    };
  }
}
