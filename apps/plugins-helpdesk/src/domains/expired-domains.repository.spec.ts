import { trustedTenantScope } from '@platform/auth';
import { createTestDataSource, FixtureBuilder } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DomainsRepository } from './domains.repository';
import { ExpiredDomainsRepository } from './expired-domains.repository';

/**
 * The pending-domain sweep's SQL against PostgreSQL: the oldest pending
 * domain never verified, added at or before the instant given, as a camelCase
 * row of every tenant; the ones this sweep skipped and those another sweep
 * holds are left.
 */
describe('ExpiredDomainsRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let expired: ExpiredDomainsRepository;
  let domains: DomainsRepository;
  let fixtures: FixtureBuilder;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(4));
    expired = new ExpiredDomainsRepository(dataSource);
    domains = new DomainsRepository(dataSource);
    fixtures = new FixtureBuilder(dataSource);
  });
  afterAll(() => close?.());
  beforeEach(async () => {
    await dataSource.query('DELETE FROM helpdesk_domains');
  });

  /** A domain of a new tenant added at `addedAt`; answers its row. */
  const added = async (addedAt: string, check?: 'active' | 'pending') => {
    const scope = trustedTenantScope(await fixtures.tenant());
    const domain = await domains.reserve(scope, await domains.ensureHelpCenter(scope), `${randomUUID()}.example.com`, 3);
    await dataSource.query('UPDATE helpdesk_domains SET created_at = $2 WHERE id = $1', [domain.id, addedAt]);
    if (check === 'active') await domains.recordCheck(scope, domain.id, { providerID: 'cf-1', status: 'active', checkedAt: new Date(addedAt) });
    if (check === 'pending') {
      await domains.recordCheck(scope, domain.id, { providerID: 'cf-1', status: 'active', checkedAt: new Date(addedAt) });
      await domains.recordCheck(scope, domain.id, { providerID: 'cf-1', status: 'pending', checkedAt: new Date(addedAt) });
    }
    return domain;
  };
  const next = (addedBefore: string, skipped: string[] = []) => expired.transaction((runner) => expired.claimNext(runner, new Date(addedBefore), skipped));

  it('answers the oldest pending domain added at or before the instant, of any tenant, as a camelCase row', async () => {
    const oldest = await added('2026-03-01T00:00:00.000Z');
    await added('2026-03-02T00:00:00.000Z');
    await added('2026-03-05T00:00:00.000Z');

    expect(await next('2026-03-04T00:00:00.000Z')).toEqual({ id: oldest.id, tenantID: oldest.tenantID, hostname: oldest.hostname, providerID: null });
    expect(await next('2026-02-28T23:59:59.999Z')).toBeUndefined();
    expect(await next('2026-03-01T00:00:00.000Z')).toMatchObject({ id: oldest.id });
  });

  it('never answers a domain once verified, even pending again, nor one this sweep skipped', async () => {
    const verified = await added('2026-03-01T00:00:00.000Z', 'pending');
    await added('2026-03-01T00:00:00.000Z', 'active');
    const skipped = await added('2026-03-02T00:00:00.000Z');
    const left = await added('2026-03-03T00:00:00.000Z');

    expect(verified.id).toBeDefined();
    expect(await next('2026-03-04T00:00:00.000Z', [skipped.id])).toMatchObject({ id: left.id });
    expect(await next('2026-03-04T00:00:00.000Z', [skipped.id, left.id])).toBeUndefined();
  });

  it('skips the domain another sweep holds', async () => {
    const first = await added('2026-03-01T00:00:00.000Z');
    const second = await added('2026-03-02T00:00:00.000Z');

    await expired.transaction(async (runner) => {
      expect(await expired.claimNext(runner, new Date('2026-03-04T00:00:00.000Z'), [])).toMatchObject({ id: first.id });
      expect(await next('2026-03-04T00:00:00.000Z')).toMatchObject({ id: second.id });
    });
  });
});
