import { trustedTenantScope } from '@platform/auth';
import { CampaignFixtures, createTestDataSource, FixtureBuilder } from '@platform/testing';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CampaignsRepository } from './campaigns.repository';

/** Operation 6's statement against PostgreSQL: every known status in order, zero where the tenant has none, the total, the tenant's own only. */
describe('CampaignsRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let campaigns: CampaignsRepository;
  let tenantID: string;
  let otherTenantID: string;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    campaigns = new CampaignsRepository(dataSource);
    const fixtures = new FixtureBuilder(dataSource);
    const campaignFixtures = new CampaignFixtures(dataSource);
    tenantID = await fixtures.tenant();
    otherTenantID = await fixtures.tenant();
    for (const status of ['running', 'running', 'draft', 'failed'] as const) await campaignFixtures.campaign(tenantID, status);
    await campaignFixtures.campaign(otherTenantID, 'completed');
  });
  afterAll(() => close?.());

  it('counts every known status in order, zero where the tenant has none', async () => {
    const stats = await campaigns.stats(trustedTenantScope(tenantID));
    expect(stats).toEqual({ byStatus: { draft: 1, scheduled: 0, running: 2, paused: 0, completed: 0, canceled: 0, failed: 1 }, total: 4 });
    expect(Object.keys(stats.byStatus)).toEqual(['draft', 'scheduled', 'running', 'paused', 'completed', 'canceled', 'failed']);
  });

  it("counts the tenant's campaigns only", async () => {
    expect(await campaigns.stats(trustedTenantScope(otherTenantID))).toMatchObject({ byStatus: { completed: 1, running: 0 }, total: 1 });
  });
});
