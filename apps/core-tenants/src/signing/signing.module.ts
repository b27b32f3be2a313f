import { DynamicModule, Global, Module } from '@nestjs/common';
import { JwksController } from './jwks.controller';
import { OperatorTokensController } from './operator-tokens.controller';
import { OPERATOR_TOKEN_CLAIMS, OperatorTokenClaims, OperatorTokenSigner, SIGNING_KEY } from './operator-token.signer';
import { SigningKey } from './signing-key';
import { TRACE_TOKEN_TTL_SECONDS, TraceTokenSigner } from './trace-token.signer';
import { TraceTokensController } from './trace-tokens.controller';

@Global()
@Module({})
export class SigningModule {
  static forRoot(key: SigningKey, claims: OperatorTokenClaims, traceTokenTtlSeconds: number): DynamicModule {
    return {
      module: SigningModule,
      controllers: [JwksController, OperatorTokensController, TraceTokensController],
      providers: [
        { provide: SIGNING_KEY, useValue: key },
        { provide: OPERATOR_TOKEN_CLAIMS, useValue: claims },
        { provide: TRACE_TOKEN_TTL_SECONDS, useValue: traceTokenTtlSeconds },
        OperatorTokenSigner,
        TraceTokenSigner,
      ],
      exports: [OperatorTokenSigner, SIGNING_KEY],
    };
  }
}
