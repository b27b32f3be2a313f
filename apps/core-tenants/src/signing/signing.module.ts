import { DynamicModule, Global, Module } from '@nestjs/common';
import { JwksController } from './jwks.controller';
import { OperatorTokensController } from './operator-tokens.controller';
import { OPERATOR_TOKEN_CLAIMS, OperatorTokenClaims, OperatorTokenSigner, SIGNING_KEY } from './operator-token.signer';
import { SigningKey } from './signing-key';

@Global()
@Module({})
export class SigningModule {
  static forRoot(key: SigningKey, claims: OperatorTokenClaims): DynamicModule {
    return {
      module: SigningModule,
      controllers: [JwksController, OperatorTokensController],
      providers: [{ provide: SIGNING_KEY, useValue: key }, { provide: OPERATOR_TOKEN_CLAIMS, useValue: claims }, OperatorTokenSigner],
      exports: [OperatorTokenSigner, SIGNING_KEY],
    };
  }
}
