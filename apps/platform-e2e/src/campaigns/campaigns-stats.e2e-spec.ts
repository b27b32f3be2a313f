import { singleError, withTableMissing } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorized, CampaignPlatform, ERRORS, startCampaignPlatform } from './campaign-platform';
import { describeStandardRefusals } from '../support/standard-refusals';

const STATUSES = ['draft', 'scheduled', 'running', 'paused', 'completed', 'canceled', 'failed'] as const;

describe('GET /v1/tenants/:tenantID/campaigns/stats (operation 6)', () => {
  let context: CampaignPlatform;
  const stats = (token = context.owner.token, tenantID = context.tenantID) =>
    context.platform.api.services.GET('/v1/tenants/{tenantID}/campaigns/stats', { params: { path: { tenantID } }, headers: authorized(token) });

  beforeAll(async () => {
    context = await startCampaignPlatform();
    const plan: [string, (typeof STATUSES)[number], number][] = [
      [context.tenantID, 'draft', 3],
      [context.tenantID, 'running', 2],
      [context.tenantID, 'completed', 5],
      [context.tenantID, 'failed', 1],
      [context.otherTenantID, 'running', 4],
      [context.otherTenantID, 'canceled', 2],
    ];
    for (const [tenantID, status, count] of plan) {
      for (let index = 0; index < count; index += 1) await context.campaigns.campaign(tenantID, status);
    }
  });
  afterAll(() => context?.close());

  it('counts the tenant\'s campaigns per status, every status present, as a count in the database does', async () => {
    const { response, data } = await stats(context.member.token);
    expect(response.status).toBe(200);
    const counted: { status: string; n: number }[] = await context.platform.dataSource.query(
      'SELECT status, count(*)::int AS n FROM campaigns WHERE tenant_id = $1 GROUP BY status',
      [context.tenantID],
    );
    const expected = Object.fromEntries(STATUSES.map((status) => [status, counted.find((row) => row.status === status)?.n ?? 0]));
    expect(data).toEqual({ byStatus: expected, total: counted.reduce((sum, row) => sum + row.n, 0) });
    expect(data).toEqual({
      byStatus: { draft: 3, scheduled: 0, running: 2, paused: 0, completed: 5, canceled: 0, failed: 1 },
      total: 11,
    });
  });

  it('follows changes at once', async () => {
    await context.campaigns.campaign(context.tenantID, 'paused');
    const { data } = await stats();
    expect(data?.byStatus.paused).toBe(1);
    expect(data?.total).toBe(12);
  });

  it('answers zeros for a tenant without campaigns', async () => {
    const { data } = await stats(context.outsider.token, context.otherTenantID);
    expect(data).toEqual({ byStatus: { draft: 0, scheduled: 0, running: 4, paused: 0, completed: 0, canceled: 2, failed: 0 }, total: 6 });
    const owner = await context.platform.fixtures.operator();
    const empty = await context.platform.fixtures.tenant();
    await context.platform.fixtures.membership(empty, owner.operatorID, 'owner');
    const none = await stats(await context.platform.tokenFor(owner.operatorID), empty);
    expect(none.data).toEqual({ byStatus: Object.fromEntries(STATUSES.map((status) => [status, 0])), total: 0 });
  });

  describeStandardRefusals({
    method: 'GET',
    path: '/v1/tenants/{tenantID}/campaigns/stats',
    client: () => context.platform.api.services,
    tenantID: () => context.tenantID,
    valid: () => `Bearer ${context.owner.token}`,
    outsider: () => `Bearer ${context.outsider.token}`,
    // Operation 6 does not tell a tenant that does not exist from one the caller is not in.
    unknownTenant: 403,
  });

  it('answers 500 5999 as its row says', async () => {
    const broken = await withTableMissing(context.platform.dataSource, 'campaigns', () => stats());
    expect([broken.response.status, singleError(broken.error)]).toEqual([500, ERRORS.unknown]);
  });
});
