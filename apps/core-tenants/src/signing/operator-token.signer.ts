import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { OPERATOR_JWT_ALGORITHM } from '@platform/auth';
import { SignJWT } from 'jose';
import { SigningKey } from './signing-key';

export const SIGNING_KEY = Symbol('SIGNING_KEY');
export const OPERATOR_TOKEN_CLAIMS = Symbol('OPERATOR_TOKEN_CLAIMS');

export interface OperatorTokenClaims {
  issuer: string;
  audience: string;
  ttlSeconds: number;
}

export interface IssuedOperatorToken {
  token: string;
  expiresInSeconds: number;
}

/** Issues operator JWTs: `sub` = operatorID, with iss, aud, iat, exp and a jti. */
@Injectable()
export class OperatorTokenSigner {
  constructor(
    @Inject(SIGNING_KEY) private readonly key: SigningKey,
    @Inject(OPERATOR_TOKEN_CLAIMS) private readonly claims: OperatorTokenClaims,
  ) {}

  async issue(operatorID: string): Promise<IssuedOperatorToken> {
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: OPERATOR_JWT_ALGORITHM, kid: this.key.kid, typ: 'JWT' })
      .setSubject(operatorID)
      .setIssuer(this.claims.issuer)
      .setAudience(this.claims.audience)
      .setIssuedAt()
      .setExpirationTime(`${this.claims.ttlSeconds}s`)
      .setJti(randomUUID())
      .sign(this.key.privateKey);
    return { token, expiresInSeconds: this.claims.ttlSeconds };
  }
}
