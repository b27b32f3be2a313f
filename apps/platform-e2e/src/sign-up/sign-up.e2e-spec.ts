import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { IssueOperatorToken } from '@platform/contracts';
import { AppException } from '@platform/errors';
import { REDIS } from '@platform/redis';
import { TransportClient } from '@platform/transport';
import { singleError } from '@platform/testing';
import type Redis from 'ioredis';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, freshAddress, requestCode, signUp, SignUpPlatform, startSignUpPlatform } from './sign-up-support';

const PASSWORD = 'a long enough secret';
const CODE_ALLOWED = 'the six-digit code last mailed to operatorEmail, within 10 minutes';
const PASSWORD_ALLOWED = 'string of 10-64 characters (at most 72 bytes), not a common password, not the e-mail address';

const wrongCodeBody = (received: string) => ({
  errors: [
    {
      statusCode: 400,
      error: 'RequestValidationError',
      error_code: 1002,
      message: 'Invalid request data.',
      fields: [{ field: 'emailVerificationCode', received, allowed: CODE_ALLOWED }],
    },
  ],
});

describe('POST /v1/operators (sign-up completion)', () => {
  let env: SignUpPlatform;

  /** Asks for a code and reads it from the mail. */
  async function mailedCode(address: string, firstname = 'Ana'): Promise<string> {
    const since = env.smtp.mails.length;
    const response = await requestCode(env.platform, { operatorEmail: address, operatorFirstname: firstname });
    expect(response.response.status).toBe(202);
    return codeOf(await env.smtp.nextMailTo(address, { since }));
  }

  beforeAll(async () => {
    env = await startSignUpPlatform({ SIGN_UP_ATTEMPTS_PER_IP: '6' });
  });
  afterAll(() => env.close());

  it('creates the operator with the mailed code: 201 with an operator token; the operator can sign in and list tenants', async () => {
    const address = freshAddress();
    const code = await mailedCode(address);
    const response = await signUp(env.platform, {
      operatorEmail: ` ${address.toUpperCase()}`,
      operatorFirstname: 'Ana',
      operatorLastname: 'Souza',
      password: PASSWORD,
      emailVerificationCode: code,
    });
    expect(response.response.status).toBe(201);
    expect(response.data!).toEqual({ data: { operatorID: expect.any(String), operatorEmail: address, token: expect.any(String) } });
    const { operatorID, token } = response.data!.data;

    // The same token sign-in gives: core-tenants' key and claims.
    expect(decodeProtectedHeader(token).alg).toBe('EdDSA');
    expect(decodeJwt(token)).toMatchObject({ sub: operatorID, iss: 'core-tenants', aud: 'platform-api' });
    const tenants = await env.platform.api.core.GET('/tenants', { headers: { authorization: `Bearer ${token}` } });
    expect(tenants.response.status).toBe(200);
    expect(tenants.data!).toEqual({ data: [] });

    const signIn = await env.platform.api.core.POST('/v1/operators/sign-in', { body: { operatorEmail: address, password: PASSWORD } });
    expect(signIn.response.status).toBe(200);
    const rows = await env.platform.dataSource.query('SELECT email, firstname, lastname, password_hash FROM operators WHERE id = $1', [operatorID]);
    expect(rows).toEqual([{ email: address, firstname: 'Ana', lastname: 'Souza', password_hash: expect.stringMatching(/^\$2[aby]\$11\$/) }]);
  });

  it('refuses a wrong code with 400 1002 naming emailVerificationCode', async () => {
    const address = freshAddress();
    const code = await mailedCode(address);
    const wrong = code === '000000' ? '000001' : '000000';
    const response = await signUp(env.platform, { operatorEmail: address, operatorFirstname: 'Ana', password: PASSWORD, emailVerificationCode: wrong });
    expect(response.response.status).toBe(400);
    expect(response.error).toEqual(wrongCodeBody(wrong));
  });

  it('limits attempts per client IP across addresses: 429 1071 with Retry-After', async () => {
    const ip = { 'x-forwarded-for': '10.77.0.1' };
    const attempt = (address: string) =>
      env.platform.api.services.POST('/v1/operators', {
        headers: ip,
        body: { operatorEmail: address, operatorFirstname: 'Ana', password: PASSWORD, emailVerificationCode: '123456' },
      });
    for (let index = 0; index < 6; index += 1) expect((await attempt(freshAddress())).response.status).toBe(400);
    const limited = await attempt(freshAddress());
    expect(limited.response.status).toBe(429);
    expect(singleError(limited.error)).toEqual({ statusCode: 429, error: 'TooManyRequestsError', error_code: 1071, message: 'Too many requests. Try again later.' });
    expect(Number(limited.response.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('refuses an expired code (after 10 minutes)', async () => {
    const address = freshAddress();
    const code = await mailedCode(address);
    env.advanceClock(10 * 60_000 + 1);
    const response = await signUp(env.platform, { operatorEmail: address, operatorFirstname: 'Ana', password: PASSWORD, emailVerificationCode: code });
    expect(response.error).toEqual(wrongCodeBody(code));
  });

  it('accepts a code just before it expires', async () => {
    const address = freshAddress();
    const code = await mailedCode(address);
    env.advanceClock(10 * 60_000 - 1_000);
    const response = await signUp(env.platform, { operatorEmail: address, operatorFirstname: 'Ana', password: PASSWORD, emailVerificationCode: code });
    expect(response.response.status).toBe(201);
  });

  it('burns the code after five wrong tries: the right code no longer works', async () => {
    const address = freshAddress();
    const code = await mailedCode(address);
    const wrongCodes = ['000000', '111111', '222222', '333333', '444444', '555555'].filter((candidate) => candidate !== code).slice(0, 5);
    for (const wrong of wrongCodes) {
      const response = await signUp(env.platform, { operatorEmail: address, operatorFirstname: 'Ana', password: PASSWORD, emailVerificationCode: wrong });
      expect(response.error).toEqual(wrongCodeBody(wrong));
    }
    const response = await signUp(env.platform, { operatorEmail: address, operatorFirstname: 'Ana', password: PASSWORD, emailVerificationCode: code });
    expect(response.error).toEqual(wrongCodeBody(code));
  });

  it('still accepts the right code after four wrong tries', async () => {
    const address = freshAddress();
    const code = await mailedCode(address);
    const wrongCodes = ['000000', '111111', '222222', '333333', '444444'].filter((candidate) => candidate !== code).slice(0, 4);
    for (const wrong of wrongCodes) {
      await signUp(env.platform, { operatorEmail: address, operatorFirstname: 'Ana', password: PASSWORD, emailVerificationCode: wrong });
    }
    const response = await signUp(env.platform, { operatorEmail: address, operatorFirstname: 'Ana', password: PASSWORD, emailVerificationCode: code });
    expect(response.response.status).toBe(201);
  });

  it('uses a code once', async () => {
    const address = freshAddress();
    const code = await mailedCode(address);
    const body = { operatorEmail: address, operatorFirstname: 'Ana', password: PASSWORD, emailVerificationCode: code };
    expect((await signUp(env.platform, body)).response.status).toBe(201);
    expect((await signUp(env.platform, body)).error).toEqual(wrongCodeBody(code));
  });

  it('does not accept a code mailed to another address', async () => {
    const first = freshAddress();
    const code = await mailedCode(first);
    const other = freshAddress();
    await mailedCode(other);
    const response = await signUp(env.platform, { operatorEmail: other, operatorFirstname: 'Ana', password: PASSWORD, emailVerificationCode: code });
    // The other address's own code could equal this one by chance (1 in a million); then it would rightly pass.
    if (response.response.status !== 201) expect(response.error).toEqual(wrongCodeBody(code));
  });

  it('answers an address that already has an account exactly as a wrong code', async () => {
    const existing = await env.platform.fixtures.operator({ email: freshAddress() });
    await requestCode(env.platform, { operatorEmail: existing.email, operatorFirstname: 'Ana' });
    const response = await signUp(env.platform, { operatorEmail: existing.email, operatorFirstname: 'Ana', password: PASSWORD, emailVerificationCode: '123456' });
    expect(response.error).toEqual(wrongCodeBody('123456'));
    const never = await signUp(env.platform, { operatorEmail: freshAddress(), operatorFirstname: 'Ana', password: PASSWORD, emailVerificationCode: '123456' });
    expect(never.error).toEqual(wrongCodeBody('123456'));
  });

  describe('validation', () => {
    const base = () => ({ operatorEmail: freshAddress(), operatorFirstname: 'Ana', password: PASSWORD, emailVerificationCode: '123456' });

    it.each([
      ['too short', 'short pw'],
      ['too long', 'x'.repeat(65)],
      ['over 72 bytes', 'ção'.repeat(25)],
      ['on the blocklist', 'Password123'],
      ['not a string', 1234567890],
    ])('refuses a password %s: 400 1002 naming password, without echoing it', async (_, password) => {
      const response = await signUp(env.platform, { ...base(), password });
      expect(response.response.status).toBe(400);
      expect(singleError(response.error).fields).toEqual([{ field: 'password', allowed: PASSWORD_ALLOWED }]);
      expect(JSON.stringify(response.error)).not.toContain(JSON.stringify(String(password)).slice(1, -1));
    });

    it('refuses a password equal to the address or its local part', async () => {
      const body = base();
      const asAddress = await signUp(env.platform, { ...body, password: body.operatorEmail.toUpperCase() });
      expect(singleError(asAddress.error).fields).toEqual([expect.objectContaining({ field: 'password' })]);
      const asLocalPart = await signUp(env.platform, { ...body, password: body.operatorEmail.split('@')[0] });
      expect(singleError(asLocalPart.error).fields).toEqual([expect.objectContaining({ field: 'password' })]);
    });

    it('needs exactly one of emailVerificationCode and invitationToken', async () => {
      const { emailVerificationCode: _, ...withoutCode } = base();
      const neither = await signUp(env.platform, withoutCode);
      expect(singleError(neither.error).fields).toEqual([
        { field: 'emailVerificationCode', received: 'undefined', allowed: 'six digits (or give invitationToken instead)' },
      ]);
      const both = await signUp(env.platform, { ...base(), invitationToken: 'abc' });
      expect(singleError(both.error).fields).toEqual([{ field: 'invitationToken', allowed: 'absent when emailVerificationCode is given' }]);
      const malformed = await signUp(env.platform, { ...base(), emailVerificationCode: '12345a' });
      expect(singleError(malformed.error).fields).toEqual([
        { field: 'emailVerificationCode', received: '12345a', allowed: 'six digits (or give invitationToken instead)' },
      ]);
    });

    it('validates the address, the names and unknown fields', async () => {
      const response = await signUp(env.platform, { ...base(), operatorEmail: 'ana..x@acme.com', operatorFirstname: '', operatorLastname: '', role: 'owner' });
      expect(response.response.status).toBe(400);
      expect(singleError(response.error).fields).toEqual([
        { field: 'role', received: 'owner', allowed: 'no such field' },
        {
          field: 'operatorEmail',
          received: 'ana..x@acme.com',
          allowed: 'e-mail address (no leading dot, no consecutive dots, domain with a dot and an alphabetic top-level part of 2+ letters)',
        },
        { field: 'operatorFirstname', received: '', allowed: 'string of 1-100 characters' },
        { field: 'operatorLastname', received: '', allowed: 'string of 1-100 characters' },
      ]);
    });
  });

  it('gets tokens from core-tenants only for operators that exist (operator-tokens.issue)', async () => {
    const client = env.platform.apps['services-api']!.get(TransportClient);
    const operator = await env.platform.fixtures.operator();
    const reply = await client.send(IssueOperatorToken, { operatorID: operator.operatorID });
    expect(decodeJwt(reply.token).sub).toBe(operator.operatorID);
    expect(reply.expiresInSeconds).toBe(3600);
    const error = await client.send(IssueOperatorToken, { operatorID: randomUUID() }).catch((caught: unknown) => caught);
    expect((error as AppException).code).toBe(1003);
    const invalid = await client.send(IssueOperatorToken, { operatorID: 'nope' }).catch((caught: unknown) => caught);
    expect((invalid as AppException).fields).toEqual([{ field: 'operatorID', received: 'nope', allowed: 'uuid' }]);
  });

  it('answers 503 5016 while the verification store is down', async () => {
    const redis = env.platform.apps['services-api']!.get<symbol, Redis>(REDIS);
    // Closed for sure before asking, or connect() below may find it still closing.
    const closed = once(redis, 'end');
    redis.disconnect();
    await closed;
    try {
      const response = await signUp(env.platform, { operatorEmail: freshAddress(), operatorFirstname: 'Ana', password: PASSWORD, emailVerificationCode: '123456' });
      expect(response.response.status).toBe(503);
      expect(singleError(response.error)).toEqual({
        statusCode: 503,
        error: 'EmailVerificationUnavailableError',
        error_code: 5016,
        message: 'E-mail verification is temporarily unavailable. Try again.',
      });
    } finally {
      await redis.connect();
    }
  });
});
