import { generateKeyPairSync, KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';

export interface TestSigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  privateKeyPem: string;
  publicKeyPem: string;
}

export function generateTestSigningKey(): TestSigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKey,
    publicKey,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

export interface TokenOverrides {
  issuer?: string;
  audience?: string;
  /** Seconds from now; negative for an expired token. */
  expiresInSeconds?: number;
  /** Seconds from now before which the token is not valid. */
  notBeforeSeconds?: number;
  subject?: string;
}

/** Signs an operator token the way core-tenants does, with knobs to make it wrong on purpose. */
export async function signOperatorToken(key: KeyObject, operatorID: string, overrides: TokenOverrides = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({})
    .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
    .setSubject(overrides.subject ?? operatorID)
    .setIssuer(overrides.issuer ?? 'core-tenants')
    .setAudience(overrides.audience ?? 'platform-api')
    .setIssuedAt(now)
    .setExpirationTime(now + (overrides.expiresInSeconds ?? 3600));
  if (overrides.notBeforeSeconds !== undefined) jwt.setNotBefore(now + overrides.notBeforeSeconds);
  return jwt.sign(key);
}

/** An unsigned `alg: none` token, which every verifier must refuse. */
export function unsignedToken(operatorID: string): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ sub: operatorID, iss: 'core-tenants', aud: 'platform-api', iat: now, exp: now + 3600 })}.`;
}
