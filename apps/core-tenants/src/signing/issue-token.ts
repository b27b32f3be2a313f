import { CoreTenantsConfig } from '../config';
import { IssuedOperatorToken, OperatorTokenSigner } from './operator-token.signer';
import { loadSigningKey } from './signing-key';

/**
 * Issues an operator token outside the HTTP app, with the same key and claims
 * as sign-in (used by the demo seed, which prints ready-to-use tokens).
 */
export async function issueOperatorToken(config: CoreTenantsConfig, operatorID: string): Promise<IssuedOperatorToken> {
  const key = await loadSigningKey({
    privateKeyPem: config.OPERATOR_JWT_PRIVATE_KEY,
    keyFile: config.OPERATOR_JWT_KEY_FILE,
    production: config.NODE_ENV === 'production',
  });
  const signer = new OperatorTokenSigner(key, {
    issuer: config.OPERATOR_JWT_ISSUER,
    audience: config.OPERATOR_JWT_AUDIENCE,
    ttlSeconds: config.OPERATOR_JWT_TTL_SECONDS,
  });
  return signer.issue(operatorID);
}
