import { OperatorFixture, request, singleError } from '@platform/testing';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';

describe('POST /v1/operators/sign-in', () => {
  let platform: TestPlatform;
  let operator: OperatorFixture;
  let tenantID: string;
  const signIn = (body: unknown, headers: Record<string, string> = {}) =>
    request(platform.coreUrl, '/v1/operators/sign-in', { method: 'POST', body, headers });

  beforeAll(async () => {
    platform = await startPlatform({
      apps: ['core-tenants'],
      env: { SIGN_IN_ATTEMPTS_PER_ADDRESS: '3', SIGN_IN_ATTEMPTS_PER_IP: '12', SIGN_IN_WINDOW_SECONDS: '60' },
    });
    operator = await platform.fixtures.operator({ password: 'a long and secret passphrase' });
    tenantID = await platform.fixtures.tenant('Demo');
    await platform.fixtures.membership(tenantID, operator.operatorID, 'owner');
  });
  afterAll(() => platform.close());

  it('answers a token that lists the operator\'s tenants', async () => {
    const response = await signIn({ operatorEmail: operator.email, password: 'a long and secret passphrase' }, { 'x-forwarded-for': '10.0.0.1' });
    expect(response.status).toBe(200);
    expect(response.body.data.expiresInSeconds).toBe(3600);
    const claims = decodeJwt(response.body.data.token);
    expect(decodeProtectedHeader(response.body.data.token).alg).toBe('EdDSA');
    expect(claims).toMatchObject({ sub: operator.operatorID, iss: 'core-tenants', aud: 'platform-api' });
    expect(claims.exp! - claims.iat!).toBe(3600);

    const tenants = await request(platform.coreUrl, '/tenants', { headers: { authorization: `Bearer ${response.body.data.token}` } });
    expect(tenants.body).toEqual({ data: [{ tenantID, tenantName: 'Demo', role: 'owner' }] });
  });

  it('matches the address regardless of case and surrounding spaces', async () => {
    const response = await signIn({ operatorEmail: `  ${operator.email.toUpperCase()} `, password: 'a long and secret passphrase' }, { 'x-forwarded-for': '10.0.0.2' });
    expect(response.status).toBe(200);
  });

  it('gives the same 401 for a wrong password and for an unknown address', async () => {
    const wrongPassword = await signIn({ operatorEmail: operator.email, password: 'not it' }, { 'x-forwarded-for': '10.0.0.3' });
    const unknownAddress = await signIn({ operatorEmail: 'nobody@acme-support.com.br', password: 'not it' }, { 'x-forwarded-for': '10.0.0.3' });
    expect(wrongPassword.status).toBe(401);
    expect(unknownAddress.status).toBe(401);
    expect(unknownAddress.body).toEqual(wrongPassword.body);
    expect(singleError(wrongPassword.body).error_code).toBe(1003);
  });

  it('validates the body: 400 1002 with fields, unknown fields refused', async () => {
    const response = await signIn({ operatorEmail: operator.email, password: 'x', remember: true }, { 'x-forwarded-for': '10.0.0.4' });
    expect(response.status).toBe(400);
    expect(singleError(response.body).fields).toEqual([{ field: 'remember', received: 'true', allowed: 'no such field' }]);
  });

  it('limits attempts per address (429 1071 with Retry-After), whatever the IP', async () => {
    const target = await platform.fixtures.operator({ password: 'a long and secret passphrase' });
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const response = await signIn({ operatorEmail: target.email, password: 'wrong' }, { 'x-forwarded-for': `10.1.0.${attempt}` });
      expect(response.status).toBe(401);
    }
    const limited = await signIn({ operatorEmail: target.email, password: 'a long and secret passphrase' }, { 'x-forwarded-for': '10.1.0.9' });
    expect(limited.status).toBe(429);
    expect(singleError(limited.body)).toEqual({ statusCode: 429, error: 'TooManyRequestsError', error_code: 1071, message: 'Too many requests. Try again later.' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('limits attempts per client IP across addresses', async () => {
    const ip = { 'x-forwarded-for': '10.2.0.1' };
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const response = await signIn({ operatorEmail: `someone-${attempt}@acme-support.com.br`, password: 'wrong' }, ip);
      expect(response.status).toBe(401);
    }
    const limited = await signIn({ operatorEmail: operator.email, password: 'a long and secret passphrase' }, ip);
    expect(limited.status).toBe(429);
    expect(singleError(limited.body).error_code).toBe(1071);
  });
});
