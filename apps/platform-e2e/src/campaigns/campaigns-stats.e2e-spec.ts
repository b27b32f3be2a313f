import { singleError, withTableMissing } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorized, CampaignPlatform, ERRORS, startCampaignPlatform, UNKNOWN_ID } from './campaign-platform';

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

  it('answers 400 1001, 400 1002, 401 1003, 403 1004 and 500 5999 as its rows say', async () => {
    expect(singleError((await stats(context.owner.token, '')).error)).toEqual(ERRORS.missingTenantID);
    expect(singleError((await stats(context.owner.token, '1234')).error)).toEqual(
      ERRORS.validation([{ field: 'tenantID', received: '1234', allowed: 'uuid' }]),
    );
    const anonymous = await context.platform.api.services.GET('/v1/tenants/{tenantID}/campaigns/stats', { params: { path: { tenantID: context.tenantID } } });
    expect([anonymous.response.status, singleError(anonymous.error)]).toEqual([401, ERRORS.unauthorized]);
    for (const [token, tenantID] of [
      [context.outsider.token, context.tenantID],
      [context.owner.token, UNKNOWN_ID],
    ]) {
      const { response, error } = await stats(token, tenantID);
      expect([response.status, singleError(error)]).toEqual([403, ERRORS.forbidden]);
    }
    const broken = await withTableMissing(context.platform.dataSource, 'campaigns', () => stats());
    expect([broken.response.status, singleError(broken.error)]).toEqual([500, ERRORS.unknown]);
  });
});
