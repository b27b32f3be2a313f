import { once } from 'node:events';
import { PG_BOSS } from '@apps/services-api';
import { REDIS } from '@platform/redis';
import { singleError } from '@platform/testing';
import type Redis from 'ioredis';
import type { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import {
  codeOf,
  DOMAINS,
  freshAddress,
  freshIp,
  mailJobStates,
  requestCode,
  signUp,
  SignUpPlatform,
  startSignUpPlatform,
} from './sign-up-support';

const ACCEPTED = { data: { expiresInSeconds: 600, resendAfterSeconds: 60 } };
const TOO_MANY = { statusCode: 429, error: 'TooManyRequestsError', error_code: 1071, message: 'Too many requests. Try again later.' };
const REFUSED_DOMAIN = { statusCode: 422, error: 'OperatorEmailDisposableError', error_code: 1847, message: 'Disposable e-mail addresses are not accepted.' };
const UNAVAILABLE = {
  statusCode: 503,
  error: 'EmailVerificationUnavailableError',
  error_code: 5016,
  message: 'E-mail verification is temporarily unavailable. Try again.',
};
const EMAIL_ALLOWED = 'e-mail address (no leading dot, no consecutive dots, domain with a dot and an alphabetic top-level part of 2+ letters)';
const PER_IP_LIMIT = 6;

describe('POST /v1/operators/email-verification (operation 8, docs/sign-up.md)', () => {
  let env: SignUpPlatform;
  const ask = (body: unknown, headers: Record<string, string> = {}) => requestCode(env.platform, body, headers);

  beforeAll(async () => {
    env = await startSignUpPlatform({ EMAIL_VERIFICATION_REQUESTS_PER_IP: String(PER_IP_LIMIT) });
  });
  afterAll(() => env.close());

  describe('the code and its mail', () => {
    it('answers 202 and mails a six-digit code greeting the person, in text and HTML, in pt-BR by default', async () => {
      const address = freshAddress();
      const response = await ask({ operatorEmail: address, operatorFirstname: 'Ana Lúcia' });
      expect(response.response.status).toBe(202);
      expect(response.data).toEqual(ACCEPTED);

      const mail = await env.smtp.nextMailTo(address);
      const code = codeOf(mail);
      expect(code).toMatch(/^[0-9]{6}$/);
      expect(mail.to).toEqual([address]);
      expect(mail.subject).toBe(`Seu código de verificação: ${code}`);
      expect(mail.text).toContain('Olá, Ana Lúcia!');
      expect(mail.text).toContain('O código vale por 10 minutos.');
      expect(mail.html).toContain('<html lang="pt-BR">');
      expect(mail.html).toContain('Olá, Ana Lúcia!');
      expect(mail.html).toContain(`>${code}</p>`);
    });

    it('writes in English when Accept-Language prefers English, and escapes the name in HTML', async () => {
      const address = freshAddress();
      const response = await ask({ operatorEmail: address, operatorFirstname: 'Bob <b>' }, { 'accept-language': 'en-GB,en;q=0.9,pt-BR;q=0.5' });
      expect(response.response.status).toBe(202);
      const mail = await env.smtp.nextMailTo(address);
      expect(mail.subject).toBe(`Your verification code: ${codeOf(mail)}`);
      expect(mail.text).toContain('Hello, Bob <b>!');
      expect(mail.html).toContain('<html lang="en">');
      expect(mail.html).toContain('Hello, Bob &lt;b&gt;!');
    });

    it('writes in pt-BR when Portuguese weighs more than English', async () => {
      const address = freshAddress();
      await ask({ operatorEmail: address, operatorFirstname: 'Caio' }, { 'accept-language': 'en;q=0.4, pt-PT;q=0.8, de' });
      expect((await env.smtp.nextMailTo(address)).subject).toMatch(/^Seu código de verificação/);
    });

    it('stores the code only as a keyed hash', async () => {
      const address = freshAddress();
      await ask({ operatorEmail: address, operatorFirstname: 'Dora' });
      const code = codeOf(await env.smtp.nextMailTo(address));
      const redis = env.platform.apps['services-api']!.get<symbol, Redis>(REDIS);
      const entry = await redis.hgetall(`signup:v1:verification:${address}`);
      expect(entry.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(entry)).not.toContain(code);
      const jobs: { data: unknown }[] = await env.platform.dataSource.query(`SELECT data FROM pgboss.job WHERE data->>'to' = $1`, [address]);
      expect(JSON.stringify(jobs)).not.toContain(code);
    });
  });

  describe('validation', () => {
    it.each([
      ['.ana@acme-atendimento.com.br', 'a leading dot'],
      ['ana..souza@acme-atendimento.com.br', 'consecutive dots'],
      ['ana@localhost', 'a domain without a dot'],
      ['ana@acme.c', 'a one-letter top-level part'],
      ['ana@acme.123', 'a numeric top-level part'],
      ['ana@acme..com', 'an empty domain label'],
      ['ana.acme.com', 'no @'],
      ['', 'an empty string'],
    ])('refuses %j (%s): 400 1002 naming operatorEmail', async (operatorEmail) => {
      const response = await ask({ operatorEmail, operatorFirstname: 'Ana' });
      expect(response.response.status).toBe(400);
      expect(singleError(response.error)).toEqual({
        statusCode: 400,
        error: 'RequestValidationError',
        error_code: 1002,
        message: 'Invalid request data.',
        fields: [{ field: 'operatorEmail', received: operatorEmail, allowed: EMAIL_ALLOWED }],
      });
    });

    it('refuses a missing or empty first name, a non-string address and unknown fields', async () => {
      const missing = await ask({ operatorEmail: freshAddress() });
      expect(singleError(missing.error).fields).toEqual([{ field: 'operatorFirstname', received: 'undefined', allowed: 'string of 1-100 characters' }]);
      const empty = await ask({ operatorEmail: freshAddress(), operatorFirstname: '' });
      expect(singleError(empty.error).fields).toEqual([{ field: 'operatorFirstname', received: '', allowed: 'string of 1-100 characters' }]);
      const numeric = await ask({ operatorEmail: 42, operatorFirstname: 'Ana' });
      expect(singleError(numeric.error).fields).toEqual([{ field: 'operatorEmail', received: '42', allowed: EMAIL_ALLOWED }]);
      const unknown = await ask({ operatorEmail: freshAddress(), operatorFirstname: 'Ana', locale: 'pt-BR' });
      expect(unknown.response.status).toBe(400);
      expect(singleError(unknown.error).fields).toEqual([{ field: 'locale', received: 'pt-BR', allowed: 'no such field' }]);
      const notObject = await ask('[1,2]');
      expect(singleError(notObject.error).error_code).toBe(1002);
    });

    it('accepts surrounding spaces and mixed case, and mails the normalised address', async () => {
      const address = freshAddress();
      const response = await ask({ operatorEmail: `  ${address.toUpperCase()} `, operatorFirstname: 'Eva' });
      expect(response.response.status).toBe(202);
      expect((await env.smtp.nextMailTo(address)).envelopeTo).toEqual([address]);
    });
  });

  describe('one request per address per minute', () => {
    it('answers 429 1071 with Retry-After to a second request within the minute, and 202 once the minute is over', async () => {
      const address = freshAddress();
      expect((await ask({ operatorEmail: address, operatorFirstname: 'Fabi' })).response.status).toBe(202);
      env.advanceClock(45_000);
      const limited = await ask({ operatorEmail: address, operatorFirstname: 'Fabi' });
      expect(limited.response.status).toBe(429);
      expect(singleError(limited.error)).toEqual(TOO_MANY);
      expect(limited.response.headers.get('retry-after')).toBe('15');
      env.advanceClock(15_001);
      const again = await ask({ operatorEmail: address, operatorFirstname: 'Fabi' });
      expect(again.response.status).toBe(202);
      expect(again.data).toEqual(ACCEPTED);
    });

    it('counts the parsed, normalised address: mixed case and surrounding spaces hit the same limit', async () => {
      const address = freshAddress();
      expect((await ask({ operatorEmail: address, operatorFirstname: 'Gil' })).response.status).toBe(202);
      const variant = await ask({ operatorEmail: ` ${address.replace(/^p/, 'P').replace('acme', 'ACME')}\t`, operatorFirstname: 'Gil' });
      expect(variant.response.status).toBe(429);
      expect(singleError(variant.error).error_code).toBe(1071);
    });

    it('gives one 202 and one 429 to two concurrent requests for one address', async () => {
      const address = freshAddress();
      const answers = await Promise.all([ask({ operatorEmail: address, operatorFirstname: 'Hugo' }), ask({ operatorEmail: address, operatorFirstname: 'Hugo' })]);
      expect(answers.map((answer) => answer.response.status).sort()).toEqual([202, 429]);
    });

    it('replaces the previous code: only the latest one verifies', async () => {
      const address = freshAddress();
      await ask({ operatorEmail: address, operatorFirstname: 'Iris' });
      const first = codeOf(await env.smtp.nextMailTo(address));
      const mailsSoFar = env.smtp.mails.length;
      env.advanceClock(61_000);
      expect((await ask({ operatorEmail: address, operatorFirstname: 'Iris' })).response.status).toBe(202);
      const second = codeOf(await env.smtp.nextMailTo(address, { since: mailsSoFar }));
      const body = { operatorEmail: address, operatorFirstname: 'Iris', password: 'a long enough secret' };
      if (first !== second) {
        const stale = await signUp(env.platform, { ...body, emailVerificationCode: first });
        expect(singleError(stale.error).fields).toEqual([expect.objectContaining({ field: 'emailVerificationCode' })]);
      }
      expect((await signUp(env.platform, { ...body, emailVerificationCode: second })).response.status).toBe(201);
    });

    it('limits requests per client IP across addresses (configurable)', async () => {
      const ip = freshIp();
      for (let index = 0; index < PER_IP_LIMIT; index += 1) {
        expect((await ask({ operatorEmail: freshAddress(), operatorFirstname: 'Juca' }, { 'x-forwarded-for': ip })).response.status).toBe(202);
      }
      const limited = await ask({ operatorEmail: freshAddress(), operatorFirstname: 'Juca' }, { 'x-forwarded-for': ip });
      expect(limited.response.status).toBe(429);
      expect(singleError(limited.error)).toEqual(TOO_MANY);
      expect(Number(limited.response.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });

  describe('disposable and undeliverable domains', () => {
    it.each([
      ['a domain of the disposable list', 'mailinator.com'],
      ['a subdomain of a wildcard entry of the list', 'inbox.33mail.com'],
      ['a domain with a null MX', DOMAINS.nullMx],
      ['a domain without MX, A or AAAA', DOMAINS.noRecords],
      ['a domain that does not exist (NXDOMAIN)', DOMAINS.nxdomain],
    ])('refuses %s: 422 1847', async (_, domain) => {
      const response = await ask({ operatorEmail: freshAddress(domain), operatorFirstname: 'Kai' });
      expect(response.response.status).toBe(422);
      expect(singleError(response.error)).toEqual(REFUSED_DOMAIN);
    });

    it.each([
      ['a domain with an A record and no MX', DOMAINS.aOnly],
      ['a domain with an AAAA record and no MX', DOMAINS.aaaaOnly],
      ['a domain with a null MX beside a real MX', DOMAINS.nullAndRealMx],
      ['a domain whose DNS server fails (SERVFAIL)', DOMAINS.servfail],
      ['a domain whose DNS server does not answer in time', DOMAINS.silent],
    ])('accepts %s', async (_, domain) => {
      const address = freshAddress(domain);
      const response = await ask({ operatorEmail: address, operatorFirstname: 'Lia' });
      expect(response.response.status).toBe(202);
      expect(response.data).toEqual(ACCEPTED);
    });

    it('does not count a refused domain against the address', async () => {
      const address = freshAddress(DOMAINS.nullMx);
      expect((await ask({ operatorEmail: address, operatorFirstname: 'Mia' })).response.status).toBe(422);
      expect((await ask({ operatorEmail: address, operatorFirstname: 'Mia' })).response.status).toBe(422);
    });
  });

  describe('addresses that already have an account', () => {
    it('get the same status and body, the same limit, and no mail', async () => {
      const existing = await env.platform.fixtures.operator({ email: freshAddress() });
      const fresh = freshAddress();
      const forExisting = await ask({ operatorEmail: existing.email, operatorFirstname: 'Nina' });
      const forFresh = await ask({ operatorEmail: fresh, operatorFirstname: 'Nina' });
      expect(forExisting.response.status).toBe(forFresh.response.status);
      expect(forExisting.data).toEqual(forFresh.data);
      expect([...forExisting.response.headers.keys()].sort()).toEqual([...forFresh.response.headers.keys()].sort());

      const limitedExisting = await ask({ operatorEmail: existing.email, operatorFirstname: 'Nina' });
      const limitedFresh = await ask({ operatorEmail: fresh, operatorFirstname: 'Nina' });
      expect(limitedExisting.response.status).toBe(429);
      expect(limitedExisting.error).toEqual(limitedFresh.error);

      await env.smtp.nextMailTo(fresh);
      // The existing address's job ran to completion without sending anything.
      await eventually(async () => expect((await mailJobStates(env.platform, existing.email))[0]?.state).toBe('completed'));
      expect(env.smtp.mails.filter((mail) => mail.envelopeTo.includes(existing.email))).toEqual([]);
    });
  });

  describe('delivery failures', () => {
    it('retries a failed delivery in the background: the mail arrives and its code verifies', async () => {
      const address = freshAddress();
      const refusalsBefore = env.smtp.refusals;
      env.smtp.refuseWith = { code: 451, message: 'Temporary failure, try later' };
      try {
        expect((await ask({ operatorEmail: address, operatorFirstname: 'Otto' })).response.status).toBe(202);
        await eventually(() => expect(env.smtp.refusals).toBeGreaterThan(refusalsBefore));
      } finally {
        env.smtp.refuseWith = undefined;
      }
      const mail = await env.smtp.nextMailTo(address);
      await eventually(async () => expect((await mailJobStates(env.platform, address))[0]?.state).toBe('completed'));
      expect(await mailJobStates(env.platform, address)).toEqual([{ state: 'completed', retryCount: 1 }]);
      const created = await signUp(env.platform, { operatorEmail: address, operatorFirstname: 'Otto', password: 'a long enough secret', emailVerificationCode: codeOf(mail) });
      expect(created.response.status).toBe(201);
    });

    it('lets the address ask again at once after a failed delivery; only the new code is then mailed', async () => {
      const address = freshAddress();
      env.smtp.refuseWith = { code: 451, message: 'Temporary failure, try later' };
      try {
        expect((await ask({ operatorEmail: address, operatorFirstname: 'Pia' })).response.status).toBe(202);
        await eventually(async () => expect((await mailJobStates(env.platform, address))[0]?.state).toBe('retry'));
      } finally {
        env.smtp.refuseWith = undefined;
      }
      const again = await ask({ operatorEmail: address, operatorFirstname: 'Pia' });
      expect(again.response.status).toBe(202);
      const mail = await env.smtp.nextMailTo(address);
      // The first job, superseded, completes on its retry without sending.
      await eventually(async () => expect((await mailJobStates(env.platform, address)).map((job) => job.state)).toEqual(['completed', 'completed']));
      expect(env.smtp.mails.filter((received) => received.envelopeTo.includes(address))).toHaveLength(1);
      const created = await signUp(env.platform, { operatorEmail: address, operatorFirstname: 'Pia', password: 'a long enough secret', emailVerificationCode: codeOf(mail) });
      expect(created.response.status).toBe(201);
    });
  });

  describe('while deliveries fail, the limit tells no account apart', () => {
    it('lets an existing address ask again at once, like a new one, and still mails it nothing', async () => {
      const existing = await env.platform.fixtures.operator({ email: freshAddress() });
      const fresh = freshAddress();
      env.smtp.refuseWith = { code: 451, message: 'Temporary failure, try later' };
      try {
        expect((await ask({ operatorEmail: fresh, operatorFirstname: 'Quim' })).response.status).toBe(202);
        await eventually(async () => expect((await mailJobStates(env.platform, fresh))[0]?.state).toBe('retry'));
        expect((await ask({ operatorEmail: existing.email, operatorFirstname: 'Quim' })).response.status).toBe(202);
        await eventually(async () => expect((await mailJobStates(env.platform, existing.email))[0]?.state).toBe('completed'));

        expect((await ask({ operatorEmail: fresh, operatorFirstname: 'Quim' })).response.status).toBe(202);
        expect((await ask({ operatorEmail: existing.email, operatorFirstname: 'Quim' })).response.status).toBe(202);
      } finally {
        env.smtp.refuseWith = undefined;
      }
      await env.smtp.nextMailTo(fresh);
      expect(env.smtp.mails.filter((mail) => mail.envelopeTo.includes(existing.email))).toEqual([]);
    });
  });

  describe('when the verification store or the queue is unavailable', () => {
    it('answers 503 5016 while Redis is down, and writes nothing', async () => {
      const redis = env.platform.apps['services-api']!.get<symbol, Redis>(REDIS);
      const address = freshAddress();
      const closed = once(redis, 'end');
      redis.disconnect();
      await closed;
      try {
        const response = await ask({ operatorEmail: address, operatorFirstname: 'Rui' });
        expect(response.response.status).toBe(503);
        expect(singleError(response.error)).toEqual(UNAVAILABLE);
      } finally {
        await redis.connect();
      }
      expect(await mailJobStates(env.platform, address)).toEqual([]);
      expect((await ask({ operatorEmail: address, operatorFirstname: 'Rui' })).response.status).toBe(202);
    });

    // Last: it stops services-api's job queue for good.
    it('answers 503 5016 while the job queue is down, and puts the previous code and limit back', async () => {
      const address = freshAddress();
      await ask({ operatorEmail: address, operatorFirstname: 'Sara' });
      const code = codeOf(await env.smtp.nextMailTo(address));
      env.advanceClock(61_000);

      await env.platform.apps['services-api']!.get<symbol, PgBoss>(PG_BOSS).stop({ graceful: false });
      const response = await ask({ operatorEmail: address, operatorFirstname: 'Sara' });
      expect(response.response.status).toBe(503);
      expect(singleError(response.error)).toEqual(UNAVAILABLE);
      // Not 429: the failed request left no limit behind.
      expect((await ask({ operatorEmail: address, operatorFirstname: 'Sara' })).response.status).toBe(503);

      const fresh = freshAddress();
      expect((await ask({ operatorEmail: fresh, operatorFirstname: 'Sara' })).response.status).toBe(503);
      const redis = env.platform.apps['services-api']!.get<symbol, Redis>(REDIS);
      expect(await redis.exists(`signup:v1:verification:${fresh}`)).toBe(0);

      // The code mailed before the failures still verifies.
      const created = await signUp(env.platform, { operatorEmail: address, operatorFirstname: 'Sara', password: 'a long enough secret', emailVerificationCode: code });
      expect(created.response.status).toBe(201);
    });
  });
});
