import { CoreTenantsApi } from '@platform/api-client';
import { OperatorFixture, singleError } from '@platform/testing';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';

/** A password a refused body carries, which no answer may show. */
const SECRET = 'correct-horse-battery-staple-42';

describe('POST /v1/operators/sign-in', () => {
  let platform: TestPlatform;
  let operator: OperatorFixture;
  let tenantID: string;
  const signIn = (body: CoreTenantsApi.components['schemas']['SignInBody'], headers: Record<string, string> = {}) =>
    platform.api.core.POST('/v1/operators/sign-in', { body, headers });

  beforeAll(async () => {
    platform = await startPlatform({
      apps: ['core-tenants'],
      env: {
        SIGN_IN_ATTEMPTS_PER_ADDRESS: '3',
        SIGN_IN_ATTEMPTS_PER_ADDRESS_CEILING: '8',
        SIGN_IN_ATTEMPTS_PER_IP: '12',
        SIGN_IN_WINDOW_SECONDS: '60',
        // The tests play clients at many addresses, each sent as X-Forwarded-For through a proxy on loopback.
        TRUST_PROXY: 'loopback',
      },
    });
    operator = await platform.fixtures.operator({ password: 'a long and secret passphrase' });
    tenantID = await platform.fixtures.tenant('Demo');
    await platform.fixtures.membership(tenantID, operator.operatorID, 'owner');
  });
  afterAll(() => platform.close());

  it('answers a token that lists the operator\'s tenants', async () => {
    const answer = await signIn({ operatorEmail: operator.email, password: 'a long and secret passphrase' }, { 'x-forwarded-for': '10.0.0.1' });
    expect(answer.response.status).toBe(200);
    expect(answer.data!.data.expiresInSeconds).toBe(3600);
    const claims = decodeJwt(answer.data!.data.token);
    expect(decodeProtectedHeader(answer.data!.data.token).alg).toBe('EdDSA');
    expect(claims).toMatchObject({ sub: operator.operatorID, iss: 'core-tenants', aud: 'platform-api' });
    expect(claims.exp! - claims.iat!).toBe(3600);

    const tenants = await platform.api.core.GET('/tenants', { headers: { authorization: `Bearer ${answer.data!.data.token}` } });
    expect(tenants.data).toEqual({ data: [{ tenantID, tenantName: 'Demo', role: 'owner' }] });
  });

  it('matches the address regardless of case and surrounding spaces', async () => {
    const answer = await signIn({ operatorEmail: `  ${operator.email.toUpperCase()} `, password: 'a long and secret passphrase' }, { 'x-forwarded-for': '10.0.0.2' });
    expect(answer.response.status).toBe(200);
  });

  it('gives the same 401 for a wrong password and for an unknown address', async () => {
    const wrongPassword = await signIn({ operatorEmail: operator.email, password: 'not it' }, { 'x-forwarded-for': '10.0.0.3' });
    const unknownAddress = await signIn({ operatorEmail: 'nobody@acme-support.com.br', password: 'not it' }, { 'x-forwarded-for': '10.0.0.3' });
    expect(wrongPassword.response.status).toBe(401);
    expect(unknownAddress.response.status).toBe(401);
    expect(unknownAddress.error).toEqual(wrongPassword.error);
    expect(singleError(wrongPassword.error).error_code).toBe(1003);
  });

  it('validates the body: 400 1002 with fields, unknown fields refused', async () => {
    // A field the contract does not have, sent on purpose.
    const answer = await signIn({ operatorEmail: operator.email, password: 'x', remember: true } as never, { 'x-forwarded-for': '10.0.0.4' });
    expect(answer.response.status).toBe(400);
    expect(singleError(answer.error).fields).toEqual([{ field: 'remember', received: 'true', allowed: 'no such field' }]);
  });

  it.each([
    ['too long', `correct-horse-${'p'.repeat(1_100)}`, 'string of 1-1024 characters'],
    ['holding U+0000', 'correct-horse\u0000battery', 'text without U+0000 or unpaired surrogates (U+D800-U+DFFF)'],
  ])('refuses a password %s with 1002 naming password, never echoing it', async (_, password, allowed) => {
    const answer = await signIn({ operatorEmail: operator.email, password }, { 'x-forwarded-for': '10.0.0.5' });
    expect(answer.response.status).toBe(400);
    expect(singleError(answer.error).fields).toEqual([{ field: 'password', allowed }]);
    expect(JSON.stringify(answer.error)).not.toContain('correct-horse');
  });

  it.each([
    ['an array', `["a@acme.com.br", "${SECRET}"]`, 'array'],
    ['a JSON string', JSON.stringify(`{"password": "${SECRET}"}`), 'string'],
  ])('refuses a body that is %s with 1002 on body, answering its JSON type and nothing of it', async (_, raw, type) => {
    const answer = await fetch(`${platform.coreUrl}/v1/operators/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.0.0.6' }, body: raw });
    const body = await answer.text();
    expect(answer.status).toBe(400);
    expect(singleError(JSON.parse(body)).fields).toEqual([{ field: 'body', received: type, allowed: 'a JSON object' }]);
    expect(body).not.toContain(SECRET);
  });

  it('never echoes a secret held inside a field that is not one', async () => {
    const answer = await signIn({ operatorEmail: { password: SECRET } as never, password: 'x' }, { 'x-forwarded-for': '10.0.0.7' });
    expect(answer.response.status).toBe(400);
    expect(JSON.stringify(answer.error)).not.toContain(SECRET);
  });

  it('limits attempts per address from one client (429 1071 with Retry-After), the right password included', async () => {
    const target = await platform.fixtures.operator({ password: 'a long and secret passphrase' });
    const client = { 'x-forwarded-for': '10.1.0.1', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' };
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const answer = await signIn({ operatorEmail: target.email, password: 'wrong' }, client);
      expect(answer.response.status).toBe(401);
    }
    const limited = await signIn({ operatorEmail: target.email, password: 'a long and secret passphrase' }, client);
    expect(limited.response.status).toBe(429);
    expect(singleError(limited.error)).toEqual({ statusCode: 429, error: 'TooManyRequestsError', error_code: 1071, message: 'Too many requests. Try again later.' });
    expect(Number(limited.response.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('after 50 failures from one client, the right password from another client signs in', async () => {
    const target = await platform.fixtures.operator({ password: 'a long and secret passphrase' });
    const attacker = { 'x-forwarded-for': '10.3.0.1', 'user-agent': 'python-requests/2.32' };
    const statuses = new Set<number>();
    for (let attempt = 0; attempt < 50; attempt += 1) statuses.add((await signIn({ operatorEmail: target.email, password: `guess-${attempt}` }, attacker)).response.status);
    expect([...statuses].sort()).toEqual([401, 429]);

    const owner = { 'x-forwarded-for': '10.3.0.2', 'user-agent': 'Mozilla/5.0 (Macintosh) Safari/605.1.15' };
    expect((await signIn({ operatorEmail: target.email, password: 'a long and secret passphrase' }, owner)).response.status).toBe(200);
  });

  it('refuses new clients once the address ceiling is used up from many clients, and lets a client that signed in before through', async () => {
    const target = await platform.fixtures.operator({ password: 'a long and secret passphrase' });
    const laptop = { 'x-forwarded-for': '10.4.0.1', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' };
    expect((await signIn({ operatorEmail: target.email, password: 'a long and secret passphrase' }, laptop)).response.status).toBe(200);
    for (let attempt = 1; attempt <= 7; attempt += 1) {
      const spread = { 'x-forwarded-for': `10.5.${attempt}.1`, 'user-agent': 'curl/8.5.0' };
      expect((await signIn({ operatorEmail: target.email, password: 'wrong' }, spread)).response.status).toBe(401);
    }
    const stranger = { 'x-forwarded-for': '10.6.0.1', 'user-agent': 'curl/8.5.0' };
    const refused = await signIn({ operatorEmail: target.email, password: 'a long and secret passphrase' }, stranger);
    expect(refused.response.status).toBe(429);
    expect(singleError(refused.error).error_code).toBe(1071);
    expect((await signIn({ operatorEmail: target.email, password: 'a long and secret passphrase' }, laptop)).response.status).toBe(200);
  });

  it('limits attempts per client IP across addresses', async () => {
    const ip = { 'x-forwarded-for': '10.2.0.1' };
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const answer = await signIn({ operatorEmail: `someone-${attempt}@acme-support.com.br`, password: 'wrong' }, ip);
      expect(answer.response.status).toBe(401);
    }
    const limited = await signIn({ operatorEmail: operator.email, password: 'a long and secret passphrase' }, ip);
    expect(limited.response.status).toBe(429);
    expect(singleError(limited.error).error_code).toBe(1071);
  });
});
