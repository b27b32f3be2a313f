import { DynamicModule, Global, Module } from '@nestjs/common';
import { IssueOperatorTokenUseCase } from './issue-operator-token.use-case';
import { IssueTraceTokensUseCase } from './issue-trace-tokens.use-case';
import { JwksController } from './jwks.controller';
import { OperatorTokensRpcController } from './operator-tokens.rpc-controller';
import { OPERATOR_TOKEN_CLAIMS, OperatorTokenClaims, OperatorTokenSigner, SIGNING_KEY } from './operator-token.signer';
import { SigningKey } from './signing-key';
import { TRACE_TOKEN_TTL_SECONDS, TraceTokenSigner } from './trace-token.signer';
import { TokenSubjectsRepository } from './token-subjects.repository';
import { TraceTokensRpcController } from './trace-tokens.rpc-controller';

@Global()
@Module({})
export class SigningModule {
  static forRoot(key: SigningKey, claims: OperatorTokenClaims, traceTokenTtlSeconds: number): DynamicModule {
    return {
      module: SigningModule,
      controllers: [JwksController, OperatorTokensRpcController, TraceTokensRpcController],
      providers: [
        { provide: SIGNING_KEY, useValue: key },
        { provide: OPERATOR_TOKEN_CLAIMS, useValue: claims },
        { provide: TRACE_TOKEN_TTL_SECONDS, useValue: traceTokenTtlSeconds },
        OperatorTokenSigner,
        TraceTokenSigner,
        TokenSubjectsRepository,
        IssueOperatorTokenUseCase,
        IssueTraceTokensUseCase,
      ],
      exports: [OperatorTokenSigner, SIGNING_KEY],
    };
  }
}
