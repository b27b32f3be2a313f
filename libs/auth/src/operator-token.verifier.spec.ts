import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { AppException } from '@platform/errors';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, JWK, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { OPERATOR_JWT_ALGORITHM, OperatorTokenVerifier } from './operator-token.verifier';
import { ExpiringCache } from './expiring-cache';

const ISSUER = 'core-tenants';
const AUDIENCE = 'platform-api';
const operatorID = '3b241101-e2bb-4255-8caf-4136c566a962';

interface SigningKey {
  privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  publicJwk: JWK;
  kid: string;
}

async function signingKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(OPERATOR_JWT_ALGORITHM, { extractable: true });
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { privateKey, publicJwk: { ...jwk, kid, alg: OPERATOR_JWT_ALGORITHM, use: 'sig' }, kid };
}

async function token(key: SigningKey, claims: { expiresAt?: number; notBefore?: number } = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({})
    .setProtectedHeader({ alg: OPERATOR_JWT_ALGORITHM, kid: key.kid, typ: 'JWT' })
    .setSubject(operatorID)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(claims.expiresAt ?? now + 3600);
  if (claims.notBefore !== undefined) jwt.setNotBefore(claims.notBefore);
  return jwt.sign(key.privateKey);
}

/** The catalog key a verification was refused with (`Unauthorized` is 401 1003), or undefined if it passed. */
async function refusalOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as AppException).key;
  }
}

/** A JWKS endpoint on loopback whose keys the test changes (core-tenants rotating its key). */
describe('OperatorTokenVerifier with a JWKS: remembered tokens', () => {
  let server: Server;
  let served: JWK[] = [];
  let jwksUrl: string;
  let first: SigningKey;
  let second: SigningKey;

  beforeAll(async () => {
    [first, second] = [await signingKey(), await signingKey()];
    server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: served })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  afterEach(() => vi.useRealTimers());

  const verifier = () => new OperatorTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, jwksUrl });

  it('refuses a remembered token once it has expired', async () => {
    served = [first.publicJwk];
    const subject = verifier();
    const jwt = await token(first, { expiresAt: Math.floor(Date.now() / 1000) + 60 });
    await expect(subject.verify(jwt)).resolves.toBe(operatorID);
    await expect(subject.verify(jwt)).resolves.toBe(operatorID);

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    expect(await refusalOf(subject.verify(jwt))).toBe('Unauthorized');
  });

  it('refuses a token before its nbf, and accepts it from then on', async () => {
    served = [first.publicJwk];
    const subject = verifier();
    const jwt = await token(first, { notBefore: Math.floor(Date.now() / 1000) + 120 });
    expect(await refusalOf(subject.verify(jwt))).toBe('Unauthorized');
    expect(await refusalOf(subject.verify(jwt))).toBe('Unauthorized');

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 121_000 });
    await expect(subject.verify(jwt)).resolves.toBe(operatorID);
  });

  it('stops the tokens of a key rotated out of the JWKS once the JWKS copy is refetched, as without the cache', async () => {
    served = [first.publicJwk];
    const subject = verifier();
    const old = await token(first);
    await expect(subject.verify(old)).resolves.toBe(operatorID);

    // core-tenants rotates: only the second key is served from now on.
    served = [second.publicJwk];
    const fresh = await token(second);
    // A token of a key missing from the copy makes the verifier refetch the JWKS (once its 30 s cooldown is over).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 31_000 });
    await expect(subject.verify(fresh)).resolves.toBe(operatorID);
    expect(await refusalOf(subject.verify(old))).toBe('Unauthorized');
  });

  it('refetches a stale JWKS copy before trusting a remembered token', async () => {
    served = [first.publicJwk];
    const subject = verifier();
    const old = await token(first, { expiresAt: Math.floor(Date.now() / 1000) + 7200 });
    await expect(subject.verify(old)).resolves.toBe(operatorID);

    served = [second.publicJwk];
    // Past the JWKS cache age (10 minutes) with no other token seen meanwhile.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 601_000 });
    expect(await refusalOf(subject.verify(old))).toBe('Unauthorized');
  });

  it('does not accept a token whose signature was changed, even after the original was remembered', async () => {
    served = [first.publicJwk];
    const subject = verifier();
    const jwt = await token(first);
    await subject.verify(jwt);
    const [header, payload, signature] = jwt.split('.');
    const tampered = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BA' : 'AA'}`;
    expect(await refusalOf(subject.verify(tampered))).toBe('Unauthorized');
  });
});

describe('ExpiringCache', () => {
  it('holds at most its size, dropping the oldest entry', () => {
    const cache = new ExpiringCache<string>(2);
    for (const key of ['a', 'b', 'c']) cache.set(key, key, 2_000_000_000_000);
    expect(cache.size).toBe(2);
    expect(cache.get('a', 0)).toBeUndefined();
    expect(cache.get('c', 0)).toBe('c');
  });

  it('forgets an entry at its expiry', () => {
    const cache = new ExpiringCache<string>(10);
    cache.set('t', 'value', 100_000);
    expect(cache.get('t', 99_999)).toBe('value');
    expect(cache.get('t', 100_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
