import type { CallHandler } from '@nestjs/common';
import { AppException } from '@platform/errors';
import { httpContext } from '@platform/testing-doubles';
import { defer, lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { keyClaimOf } from './idempotency-key-claim';
import type { ExistingKey, IdempotencyKeyStore, KeyScope, NewClaim, StoredAnswer } from './idempotency-key-store';
import { IdempotentReplay, IdempotentRequest, isKeptAnswer, verdictOn } from './idempotent-request';

interface Row {
  fingerprint: string;
  leaseToken?: string;
  leaseExpiresAt?: Date;
  answer?: StoredAnswer;
  expiresAt: Date;
}

/** The key store port in memory, with the claim rule of the PostgreSQL statement. */
class InMemoryKeyStore implements IdempotencyKeyStore {
  readonly rows = new Map<string, Row>();
  /** Called between a failed claim and the read that follows it, to play a concurrent change. */
  beforeFind?: () => void;

  static id(scope: KeyScope): string {
    return JSON.stringify([scope.app, scope.principal, scope.tenantID, scope.key]);
  }

  async claim(scope: KeyScope, claim: NewClaim): Promise<boolean> {
    const id = InMemoryKeyStore.id(scope);
    const row = this.rows.get(id);
    const lapsed = row?.leaseExpiresAt !== undefined && row.leaseExpiresAt <= claim.now && row.fingerprint === claim.fingerprint;
    if (row && row.expiresAt > claim.now && !lapsed) return false;
    this.rows.set(id, { fingerprint: claim.fingerprint, leaseToken: claim.leaseToken, leaseExpiresAt: claim.leaseUntil, expiresAt: claim.expiresAt });
    return true;
  }

  async find(scope: KeyScope): Promise<ExistingKey | undefined> {
    this.beforeFind?.();
    const row = this.rows.get(InMemoryKeyStore.id(scope));
    if (!row) return undefined;
    if (row.answer) return { state: 'completed', fingerprint: row.fingerprint, answer: row.answer, expiresAt: row.expiresAt };
    return { state: 'executing', fingerprint: row.fingerprint, leaseExpiresAt: row.leaseExpiresAt!, expiresAt: row.expiresAt };
  }

  async complete(scope: KeyScope, leaseToken: string, answer: StoredAnswer): Promise<void> {
    const row = this.rows.get(InMemoryKeyStore.id(scope));
    if (row?.leaseToken === leaseToken) Object.assign(row, { answer, leaseToken: undefined, leaseExpiresAt: undefined });
  }

  async release(scope: KeyScope, leaseToken: string): Promise<void> {
    const id = InMemoryKeyStore.id(scope);
    if (this.rows.get(id)?.leaseToken === leaseToken) this.rows.delete(id);
  }
}

const SETTINGS = { retentionSeconds: 86_400, leaseSeconds: 60 };
const SCOPE: KeyScope = { app: 'services-api', principal: 'operator:o1', tenantID: 't1', key: 'k1' };
const T0 = new Date('2026-01-01T00:00:00Z');
const later = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const OK: StoredAnswer = { status: 201, headers: {}, body: '{"data":{"id":"1"}}' };

/** A request of fingerprint `fingerprint` at the time `now()` returns. */
let leaseTokens = 0;
function requestUnder(store: InMemoryKeyStore, fingerprint = 'f1', now = () => T0): IdempotentRequest {
  return new IdempotentRequest(store, SCOPE, fingerprint, SETTINGS, now, () => `lease-${(leaseTokens += 1)}`);
}

async function refusalOf(request: IdempotentRequest): Promise<unknown> {
  return request.claim().then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('verdictOn', () => {
  const executing: ExistingKey = { state: 'executing', fingerprint: 'f1', leaseExpiresAt: later(60), expiresAt: later(86_400) };
  const completed: ExistingKey = { state: 'completed', fingerprint: 'f1', answer: OK, expiresAt: later(86_400) };

  it.each<[string, ExistingKey | undefined, string, Date, string]>([
    ['no key', undefined, 'f1', T0, 'claim-again'],
    ['a kept answer, same parameters', completed, 'f1', T0, 'replay'],
    ['a kept answer, other parameters', completed, 'f2', T0, 'reused'],
    ['a running request, same parameters', executing, 'f1', T0, 'in-progress'],
    ['a running request, other parameters', executing, 'f2', T0, 'reused'],
    ['a lapsed lease, same parameters', executing, 'f1', later(60), 'claim-again'],
    ['a lapsed lease, other parameters', executing, 'f2', later(60), 'reused'],
    ['a kept answer past its retention', completed, 'f2', later(86_400), 'claim-again'],
  ])('%s: %s', (_, existing, fingerprint, now, verdict) => {
    expect(verdictOn(existing, fingerprint, now)).toBe(verdict);
  });
});

describe('isKeptAnswer', () => {
  it.each([200, 201, 202, 204, 400, 403, 404, 409, 422])('keeps %i', (status) => expect(isKeptAnswer(status)).toBe(true));
  it.each([408, 429, 500, 502, 503, 504])('does not keep %i', (status) => expect(isKeptAnswer(status)).toBe(false));
});

describe('IdempotentRequest', () => {
  it('owns a free key, and its answer is then replayed to the same request', async () => {
    const store = new InMemoryKeyStore();
    const first = requestUnder(store);
    await first.claim();
    expect(first.owned).toBe(true);
    await first.settle(OK);

    const replay = await refusalOf(requestUnder(store));
    expect(replay).toBeInstanceOf(IdempotentReplay);
    expect((replay as IdempotentReplay).answer).toEqual(OK);
  });

  it('refuses other parameters with 422 1980, and a second execution while the first runs with 409 1981 (Retry-After 1)', async () => {
    const store = new InMemoryKeyStore();
    await requestUnder(store).claim();
    expect(((await refusalOf(requestUnder(store, 'f2'))) as AppException).code).toBe(1980);
    const busy = (await refusalOf(requestUnder(store))) as AppException;
    expect(busy.code).toBe(1981);
    expect(busy.retryAfterSeconds).toBe(1);
  });

  it('takes over a key whose lease lapsed (its process died), and the dead execution can no longer settle it', async () => {
    const store = new InMemoryKeyStore();
    const dead = requestUnder(store);
    await dead.claim();
    const retry = requestUnder(store, 'f1', () => later(60));
    await retry.claim();
    expect(retry.owned).toBe(true);
    await dead.settle({ ...OK, body: '"stale"' });
    await retry.settle(OK);
    expect(((await refusalOf(requestUnder(store))) as IdempotentReplay).answer).toEqual(OK);
  });

  it('releases the key on an answer that is not kept, so the request can run again', async () => {
    const store = new InMemoryKeyStore();
    const failed = requestUnder(store);
    await failed.claim();
    await failed.settle({ status: 503, headers: {}, body: '{}' });
    expect(store.rows.size).toBe(0);
    const retry = requestUnder(store);
    await retry.claim();
    expect(retry.owned).toBe(true);
  });

  it('claims a key past its retention as a new one, whatever it held', async () => {
    const store = new InMemoryKeyStore();
    const first = requestUnder(store);
    await first.claim();
    await first.settle(OK);
    const afterRetention = requestUnder(store, 'f2', () => later(86_400));
    await afterRetention.claim();
    expect(afterRetention.owned).toBe(true);
  });

  it('claims again when the key disappears between the failed claim and the read', async () => {
    const store = new InMemoryKeyStore();
    await requestUnder(store).claim();
    store.beforeFind = () => {
      store.rows.clear();
      store.beforeFind = undefined;
    };
    const next = requestUnder(store);
    await next.claim();
    expect(next.owned).toBe(true);
  });

  it('is claimed once only', async () => {
    const request = requestUnder(new InMemoryKeyStore());
    await request.claim();
    await expect(request.claim()).rejects.toThrow(/claimed twice/);
  });
});

/** A reply as the interceptor uses it. */
class FakeReply {
  statusCode = 201;
  readonly sent: Record<string, string> = {};
  getHeader(name: string): string | undefined {
    return this.sent[name];
  }
  status(code: number): this {
    this.statusCode = code;
    return this;
  }
  header(name: string, value: string): this {
    this.sent[name] = value;
    return this;
  }
  headers(values: Record<string, string>): this {
    Object.assign(this.sent, values);
    return this;
  }
}

describe('IdempotencyInterceptor', () => {
  const store = new InMemoryKeyStore();
  const interceptor = new IdempotencyInterceptor(store, { ...SETTINGS, app: 'services-api', sweepIntervalSeconds: 600 }, { now: () => T0 });
  let actions = 0;

  /** One request through the interceptor: the handler (its use case) claims the key after its access check, then acts as `act` says. */
  async function send(key: string | undefined, body: unknown, act: (reply: FakeReply) => unknown = () => ({ created: (actions += 1) })) {
    const reply = new FakeReply();
    const request = {
      method: 'POST',
      url: '/v1/tenants/T1/things',
      routeOptions: { url: '/v1/tenants/:tenantID/things' },
      params: { tenantID: 'T1' },
      body,
      headers: key === undefined ? {} : { 'idempotency-key': key },
      principal: { kind: 'operator', operatorID: 'o1' },
    };
    const context = httpContext(request, reply);
    const next: CallHandler = {
      handle: () =>
        defer(async () => {
          await keyClaimOf(request).claimKey();
          return act(reply);
        }),
    };
    try {
      const value = await lastValueFrom(interceptor.intercept(context, next));
      return { value, reply };
    } catch (error) {
      return { error, reply };
    }
  }

  it('passes a request without a key through untouched', async () => {
    const before = actions;
    expect((await send(undefined, { a: 1 })).value).toEqual({ created: before + 1 });
    expect((await send(undefined, { a: 1 })).value).toEqual({ created: before + 2 });
    expect(store.rows.size).toBe(0);
  });

  it('acts once and replays the JSON sent, with its status, Location and Idempotent-Replayed', async () => {
    const before = actions;
    const withLocation = (reply: FakeReply) => {
      reply.header('location', '/things/1');
      return { created: (actions += 1) };
    };
    const first = await send('once', { a: 1 }, withLocation);
    expect(first.value).toEqual({ created: before + 1 });
    expect(first.reply.sent['idempotent-replayed']).toBeUndefined();

    const replay = await send('once', { a: 1 }, withLocation);
    expect(actions).toBe(before + 1);
    expect(replay.value).toBe(JSON.stringify({ created: before + 1 }));
    expect(replay.reply.statusCode).toBe(201);
    expect(replay.reply.sent).toEqual({
      location: '/things/1',
      'content-type': 'application/json; charset=utf-8',
      'idempotent-replayed': 'true',
    });
    const row = [...store.rows.values()].at(-1)!;
    expect(row.answer).toEqual({ status: 201, headers: { location: '/things/1' }, body: JSON.stringify({ created: before + 1 }) });
  });

  it('keys the tenant lower-cased and the caller by kind and id', async () => {
    await send('scoped', { a: 1 });
    expect(store.rows.has(InMemoryKeyStore.id({ app: 'services-api', principal: 'operator:o1', tenantID: 't1', key: 'scoped' }))).toBe(true);
  });

  it('keeps a client error and replays it', async () => {
    const refuse = () => {
      throw new AppException('PluginAlreadyInstalled');
    };
    const first = await send('refused', { a: 1 }, refuse);
    expect((first.error as AppException).code).toBe(1950);
    const replay = await send('refused', { a: 1 }, () => ({ created: true }));
    expect(replay.reply.statusCode).toBe(409);
    expect(JSON.parse(replay.value as string).errors[0].error_code).toBe(1950);
    expect(replay.reply.sent['idempotent-replayed']).toBe('true');
  });

  it('releases the key after a server error or an unexpected exception, so a retry acts', async () => {
    const first = await send('flaky', { a: 1 }, () => {
      throw new AppException('BadGateway');
    });
    expect((first.error as AppException).code).toBe(5002);
    const second = await send('flaky', { a: 1 }, () => {
      throw new Error('boom');
    });
    expect((second.error as Error).message).toBe('boom');
    expect((await send('flaky', { a: 1 }, () => ({ ok: true }))).value).toEqual({ ok: true });
  });

  it('refuses other parameters under a used key with 422 1980, before acting', async () => {
    await send('reused', { a: 1 });
    const before = actions;
    expect(((await send('reused', { a: 2 })).error as AppException).code).toBe(1980);
    expect(actions).toBe(before);
  });

  it('leaves the key unclaimed when the access check refuses, so nothing is kept', async () => {
    const refused = await send('forbidden', { a: 1 }, () => undefined);
    expect(refused.error).toBeUndefined();
    const reply = new FakeReply();
    const request = {
      method: 'POST',
      routeOptions: { url: '/v1/tenants/:tenantID/things' },
      params: { tenantID: 'T1' },
      body: { a: 1 },
      headers: { 'idempotency-key': 'denied' },
      principal: { kind: 'operator', operatorID: 'o1' },
    };
    const context = httpContext(request, reply);
    const denied = lastValueFrom(
      interceptor.intercept(context, {
        handle: () =>
          defer(async () => {
            throw new AppException('Forbidden');
          }),
      }),
    );
    await expect(denied).rejects.toMatchObject({ code: 1004 });
    expect([...store.rows.keys()].some((id) => id.includes('"denied"'))).toBe(false);
  });

  it('refuses a malformed key with 400 1002 before anything runs', () => {
    const context = httpContext({ headers: { 'idempotency-key': '' } }, new FakeReply());
    expect(() => interceptor.intercept(context, { handle: () => defer(async () => undefined) })).toThrow(AppException);
  });
});
