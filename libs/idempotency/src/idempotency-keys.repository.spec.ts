import { createTestDataSource } from '@platform/test-support';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { KeyScope, NewClaim } from './idempotency-key-store';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';

/**
 * The idempotency keys' SQL (libs/idempotency) against PostgreSQL: the claim
 * of a free key, of one past its retention and of one whose execution's lease
 * lapsed (same request only), the answer kept and read back, the release,
 * each app's and principal's and tenant's own rows, and the sweep's batches.
 * Every instant is the caller's, so none is read from a clock here. On a
 * test database of libs/test-support (docs/testing.md).
 */
describe('IdempotencyKeysRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let keys: IdempotencyKeysRepository;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    keys = new IdempotencyKeysRepository(dataSource);
  });
  afterAll(() => close?.());
  beforeEach(async () => {
    await dataSource.query('DELETE FROM idempotency_keys');
  });

  const T0 = Date.parse('2026-03-02T12:00:00.000Z');
  const at = (seconds: number) => new Date(T0 + seconds * 1000);
  const keyScope = (overrides: Partial<KeyScope> = {}): KeyScope => ({
    app: 'services-api',
    principal: 'operator:9c8b7a6d-5e4f-4321-8abc-def012345678',
    tenantID: '5d1e0f3a-8c2b-4d6e-9f10-112233445566',
    key: 'key-1',
    ...overrides,
  });
  /** A claim made `now` seconds after T0, leased for 30 s, kept for a day. */
  const newClaim = (now: number, fingerprint = 'fingerprint-1'): NewClaim => ({ fingerprint, leaseToken: randomUUID(), now: at(now), leaseUntil: at(now + 30), expiresAt: at(now + 86_400) });

  it('claims a free key as executing, and then no other execution may claim it while the lease holds', async () => {
    const claim = newClaim(0);
    expect(await keys.claim(keyScope(), claim)).toBe(true);
    expect(await keys.find(keyScope())).toEqual({ state: 'executing', fingerprint: 'fingerprint-1', leaseExpiresAt: at(30), expiresAt: at(86_400) });

    expect(await keys.claim(keyScope(), newClaim(10))).toBe(false);
    expect(await keys.claim(keyScope(), newClaim(10, 'fingerprint-2'))).toBe(false);
    expect(await keys.find(keyScope())).toMatchObject({ leaseExpiresAt: at(30) });
  });

  it('lets the same request take over a lapsed lease, never another request', async () => {
    await keys.claim(keyScope(), newClaim(0));
    expect(await keys.claim(keyScope(), newClaim(30, 'fingerprint-2'))).toBe(false);
    expect(await keys.claim(keyScope(), newClaim(30))).toBe(true);
    expect(await keys.find(keyScope())).toMatchObject({ state: 'executing', leaseExpiresAt: at(60) });
  });

  it('keeps the answer of the execution holding the lease, and reads it back', async () => {
    const claim = newClaim(0);
    await keys.claim(keyScope(), claim);
    await keys.complete(keyScope(), randomUUID(), { status: 500, headers: {}, body: 'not this one' });
    expect(await keys.find(keyScope())).toMatchObject({ state: 'executing' });

    await keys.complete(keyScope(), claim.leaseToken, { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":"1"}' });
    expect(await keys.find(keyScope())).toEqual({
      state: 'completed',
      fingerprint: 'fingerprint-1',
      answer: { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":"1"}' },
      expiresAt: at(86_400),
    });
    // A completed key is kept, whatever its lease was, until its retention ends; then any request may claim it afresh.
    expect(await keys.claim(keyScope(), newClaim(3600))).toBe(false);
    expect(await keys.claim(keyScope(), newClaim(86_400, 'fingerprint-2'))).toBe(true);
    expect(await keys.find(keyScope())).toEqual({ state: 'executing', fingerprint: 'fingerprint-2', leaseExpiresAt: at(86_430), expiresAt: at(172_800) });
  });

  it('releases a key only for the execution holding it', async () => {
    const claim = newClaim(0);
    await keys.claim(keyScope(), claim);
    await keys.release(keyScope(), randomUUID());
    expect(await keys.find(keyScope())).toBeDefined();
    await keys.release(keyScope(), claim.leaseToken);
    expect(await keys.find(keyScope())).toBeUndefined();
    expect(await keys.claim(keyScope(), newClaim(1, 'fingerprint-2'))).toBe(true);
  });

  it('keeps the keys of each app, principal and tenant apart', async () => {
    await keys.claim(keyScope(), newClaim(0));
    for (const other of [{ app: 'core-tenants' }, { principal: 'plugin:11111111-0000-4000-8000-000000000001' }, { tenantID: '' }, { key: 'key-2' }]) {
      expect(await keys.find(keyScope(other))).toBeUndefined();
      expect(await keys.claim(keyScope(other), newClaim(1))).toBe(true);
    }
  });

  it("sweeps one app's keys past their retention, a batch at a time", async () => {
    for (const key of ['a', 'b', 'c']) await keys.claim(keyScope({ key }), newClaim(0));
    await keys.claim(keyScope({ key: 'later' }), newClaim(60));
    await keys.claim(keyScope({ app: 'core-tenants' }), newClaim(0));
    const retentionEnd = at(86_400);

    expect(await keys.deleteExpired('services-api', retentionEnd, 2)).toBe(2);
    expect(await keys.deleteExpired('services-api', retentionEnd, 2)).toBe(1);
    expect(await keys.deleteExpired('services-api', retentionEnd, 2)).toBe(0);
    expect(await keys.find(keyScope({ key: 'later' }))).toBeDefined();
    expect(await keys.find(keyScope({ app: 'core-tenants' }))).toBeDefined();
  });
});
