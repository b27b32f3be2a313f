import { createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { calculateJwkThumbprint, exportJWK, JWK } from 'jose';

export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** Key id: the RFC 7638 thumbprint of the public key. */
  kid: string;
  publicJwk: JWK;
}

export interface SigningKeySource {
  privateKeyPem?: string;
  keyFile: string;
  production: boolean;
}

/**
 * The Ed25519 key that signs operator tokens: from configuration, or, outside
 * production, from a local key file generated on first run (mode 0600).
 */
export async function loadSigningKey(source: SigningKeySource): Promise<SigningKey> {
  let pem = source.privateKeyPem;
  if (!pem) {
    if (source.production) throw new Error('OPERATOR_JWT_PRIVATE_KEY is missing: production never generates its signing key');
    if (!existsSync(source.keyFile)) {
      const { privateKey } = generateKeyPairSync('ed25519');
      mkdirSync(dirname(source.keyFile), { recursive: true });
      writeFileSync(source.keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
    }
    pem = readFileSync(source.keyFile, 'utf8');
  }
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('OPERATOR_JWT_PRIVATE_KEY is malformed: must be an Ed25519 key');
  const publicKey = createPublicKey(privateKey);
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { privateKey, publicKey, kid, publicJwk: { ...jwk, kid, alg: 'EdDSA', use: 'sig' } };
}
