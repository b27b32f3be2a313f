import { trustedTenantScope } from '@platform/auth';
import { AppException } from '@platform/errors';
import { createTestDataSource, FixtureBuilder } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DomainsRepository } from './domains.repository';

/**
 * Helpdesk domains' SQL against PostgreSQL: one help center per tenant, the
 * reservation within the limit (race-free) and the platform-wide unique
 * hostname, the camelCase row, the check that stamps `verified_at` once and
 * tells the status before it, the list's order and pages, and tenant scoping.
 */
describe('DomainsRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let domains: DomainsRepository;
  let fixtures: FixtureBuilder;
  let tenantID: string;
  let helpCenterID: string;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(4));
    domains = new DomainsRepository(dataSource);
    fixtures = new FixtureBuilder(dataSource);
  });
  afterAll(() => close?.());
  beforeEach(async () => {
    tenantID = await fixtures.tenant();
    helpCenterID = await domains.ensureHelpCenter(scope());
  });

  const scope = (tenant = tenantID) => trustedTenantScope(tenant);
  const hostname = (name: string) => `${name}.${randomUUID().slice(0, 8)}.example.com`;
  const keyOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'ok',
      (error: unknown) => (error instanceof AppException ? error.key : Promise.reject(error)),
    );

  it('keeps one help center per tenant, however many ask for it at once', async () => {
    const otherTenant = await fixtures.tenant();
    const asked = await Promise.all([domains.ensureHelpCenter(scope(otherTenant)), domains.ensureHelpCenter(scope(otherTenant)), domains.ensureHelpCenter(scope(otherTenant))]);
    expect(new Set(asked).size).toBe(1);
    expect(await domains.ensureHelpCenter(scope())).toBe(helpCenterID);
    expect(asked[0]).not.toBe(helpCenterID);
  });

  it('reserves a hostname pending, as a camelCase row, found by hostname in its tenant and by entry platform-wide', async () => {
    const name = hostname('ajuda');
    const reserved = await domains.reserve(scope(), helpCenterID, name, 3);

    expect(reserved).toEqual({ id: expect.any(String), tenantID, hostname: name, providerID: null, status: 'pending', lastCheckedAt: null, verifiedAt: null });
    expect(await domains.byHostname(scope(), name)).toEqual(reserved);
    expect(await domains.byHostname(scope(await fixtures.tenant()), name)).toBeUndefined();
    expect(await domains.hostnameTaken(name)).toBe(true);
    expect(await domains.hostnameTaken(hostname('free'))).toBe(false);
    expect(await domains.entryOf(name)).toEqual({ tenantID, helpCenterID });
    expect(await domains.entryOf(hostname('free'))).toBeUndefined();
  });

  it("refuses a hostname another tenant holds (1970) and one beyond the help center's limit (1972), however many adds race", async () => {
    const otherTenant = await fixtures.tenant();
    const taken = hostname('taken');
    await domains.reserve(scope(otherTenant), await domains.ensureHelpCenter(scope(otherTenant)), taken, 3);

    expect(await keyOf(domains.reserve(scope(), helpCenterID, taken, 3))).toBe('DomainHostnameTaken');
    const racing = await Promise.all([1, 2, 3, 4].map((n) => keyOf(domains.reserve(scope(), helpCenterID, hostname(`race-${n}`), 2))));
    expect(racing.sort()).toEqual(['DomainLimitReached', 'DomainLimitReached', 'ok', 'ok']);
    expect(await domains.count(scope())).toBe(2);
    expect(await domains.count(scope(otherTenant))).toBe(1);
  });

  it('records each check with the status before it, stamping verified_at the first time the domain is active only', async () => {
    const reserved = await domains.reserve(scope(), helpCenterID, hostname('verified'), 3);
    const check = (status: 'pending' | 'active', at: string, tenant = tenantID) =>
      domains.recordCheck(scope(tenant), reserved.id, { providerID: 'cf-1', status, checkedAt: new Date(at) });

    expect(await check('pending', '2026-03-02T12:00:00.000Z')).toMatchObject({ providerID: 'cf-1', status: 'pending', previousStatus: 'pending', verifiedAt: null });
    expect(await check('active', '2026-03-02T12:05:00.000Z')).toMatchObject({
      status: 'active',
      previousStatus: 'pending',
      lastCheckedAt: new Date('2026-03-02T12:05:00.000Z'),
      verifiedAt: new Date('2026-03-02T12:05:00.000Z'),
    });
    await check('pending', '2026-03-02T12:10:00.000Z');
    expect(await check('active', '2026-03-02T12:15:00.000Z')).toMatchObject({ previousStatus: 'pending', verifiedAt: new Date('2026-03-02T12:05:00.000Z') });
    expect(await check('active', '2026-03-02T12:20:00.000Z', await fixtures.tenant())).toBeUndefined();

    expect(await domains.remove(scope(await fixtures.tenant()), reserved.id)).toBe(false);
    expect(await domains.remove(scope(), reserved.id)).toBe(true);
    expect(await domains.remove(scope(), reserved.id)).toBe(false);
    expect(await check('active', '2026-03-02T12:25:00.000Z')).toBeUndefined();
  });

  it("lists the tenant's domains by hostname, in pages", async () => {
    const names = ['c', 'a', 'b'].map((name) => `${name}.${tenantID}.example.com`);
    for (const name of names) await domains.reserve(scope(), helpCenterID, name, 3);
    const hostnames = (found: { hostname: string }[]) => found.map((domain) => domain.hostname);

    expect(hostnames(await domains.list(scope(), { offset: 0, limit: 10 }))).toEqual([...names].sort());
    expect(hostnames(await domains.list(scope(), { offset: 1, limit: 1 }))).toEqual([names[2]]);
    expect(await domains.list(scope(), { offset: 3, limit: 10 })).toEqual([]);
    expect(await domains.list(scope(await fixtures.tenant()), { offset: 0, limit: 10 })).toEqual([]);
  });
});
