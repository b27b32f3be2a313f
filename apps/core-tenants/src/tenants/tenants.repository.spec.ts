import { trustedTenantScope } from '@platform/auth';
import { createTestDataSource, FixtureBuilder } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TenantsRepository } from './tenants.repository';

/** Tenants' SQL against PostgreSQL: an operator's tenants with their role, by name then id, and a tenant's details, as camelCase rows. */
describe('TenantsRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let tenants: TenantsRepository;
  let fixtures: FixtureBuilder;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    tenants = new TenantsRepository(dataSource);
    fixtures = new FixtureBuilder(dataSource);
  });
  afterAll(() => close?.());

  it("lists the operator's tenants with their role, by name, the id ordering one name", async () => {
    const { operatorID } = await fixtures.operator();
    const beta = await fixtures.tenant('Beta');
    const alphas = [await fixtures.tenant('Alpha'), await fixtures.tenant('Alpha')].sort();
    await fixtures.tenant('Aardvark');
    await fixtures.membership(beta, operatorID, 'member');
    for (const alpha of alphas) await fixtures.membership(alpha, operatorID, 'owner');

    expect(await tenants.listForOperator(operatorID)).toEqual([
      { tenantID: alphas[0], tenantName: 'Alpha', role: 'owner' },
      { tenantID: alphas[1], tenantName: 'Alpha', role: 'owner' },
      { tenantID: beta, tenantName: 'Beta', role: 'member' },
    ]);
    expect(await tenants.listForOperator(randomUUID())).toEqual([]);
  });

  it("answers a tenant's details, none for an unknown tenant", async () => {
    const tenantID = await fixtures.tenant('Acme');
    expect(await tenants.findDetails(trustedTenantScope(tenantID))).toEqual({ tenantID, tenantName: 'Acme', createdAt: expect.any(Date) });
    expect(await tenants.findDetails(trustedTenantScope(randomUUID()))).toBeUndefined();
  });
});
