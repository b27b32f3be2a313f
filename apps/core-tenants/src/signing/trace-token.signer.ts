import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { OPERATOR_JWT_ALGORITHM } from '@platform/auth';
import { SignJWT } from 'jose';
import { OPERATOR_TOKEN_CLAIMS, OperatorTokenClaims, SIGNING_KEY } from './operator-token.signer';
import { SigningKey } from './signing-key';

export const TRACE_TOKEN_TTL_SECONDS = Symbol('TRACE_TOKEN_TTL_SECONDS');

/** The JOSE `typ` of trace-provider credentials (RFC 8725 explicit typing): never mistaken for an operator token. */
export const TRACE_TOKEN_TYPE = 'trace-provider+jwt';

/** The only scope a trace-provider credential grants. */
export const TRACE_TOKEN_SCOPE = 'processing-traces:read';

export interface TraceTokenSubject {
  tenantID: string;
  sessionID: string;
  pluginID: string;
  pluginURN: string;
}

/**
 * Credentials the platform sends to processing-trace providers
 * (docs/protocols/processing-traces.openapi.yaml, security): signed with the
 * same key as operator tokens, so a plugin verifies them against the public
 * JWKS; `aud` is the plugin's URN, so a token for one plugin is worthless to
 * another, and `sub`/`tenantID`/`sessionID` name what the call is about.
 */
@Injectable()
export class TraceTokenSigner {
  constructor(
    @Inject(SIGNING_KEY) private readonly key: SigningKey,
    @Inject(OPERATOR_TOKEN_CLAIMS) private readonly operatorClaims: OperatorTokenClaims,
    @Inject(TRACE_TOKEN_TTL_SECONDS) private readonly ttlSeconds: number,
  ) {}

  async issue(subject: TraceTokenSubject): Promise<{ token: string; expiresInSeconds: number }> {
    // An audience equal to the operator tokens' would let a plugin replay its credential as an operator token.
    if (subject.pluginURN === this.operatorClaims.audience) throw new Error(`plugin ${subject.pluginID} has the operator tokens' audience as URN`);
    const token = await new SignJWT({
      tenantID: subject.tenantID,
      sessionID: subject.sessionID,
      pluginID: subject.pluginID,
      scope: TRACE_TOKEN_SCOPE,
    })
      .setProtectedHeader({ alg: OPERATOR_JWT_ALGORITHM, kid: this.key.kid, typ: TRACE_TOKEN_TYPE })
      .setSubject(subject.tenantID)
      .setIssuer(this.operatorClaims.issuer)
      .setAudience(subject.pluginURN)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .setJti(randomUUID())
      .sign(this.key.privateKey);
    return { token, expiresInSeconds: this.ttlSeconds };
  }
}
