import { AuditRetention } from '@apps/services-api';
import { Clock } from '@platform/scheduling';
import { singleError } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CampaignPlatform, modelBody, startCampaignPlatform } from '../campaigns/campaign-platform';
import { describeStandardRefusals } from '../support/standard-refusals';

/** GET /v1/tenants/{tenantID}/audit-events, fed by campaign-model actions (services-api alone). */
describe('the audit log', () => {
  let campaign: CampaignPlatform;
  let firstModelID: string;
  let secondModelID: string;
  let createdAt: string;

  const bearer = (token: string) => `Bearer ${token}`;
  const events = (query: Record<string, string> = {}, authorization = bearer(campaign.owner.token), tenantID = campaign.tenantID) =>
    campaign.platform.api.services.GET('/v1/tenants/{tenantID}/audit-events', {
      params: { path: { tenantID }, query: query as never },
      headers: { authorization },
    });
  const create = async (name: string, requestID: string) => {
    const response = await campaign.platform.api.services.POST('/v1/tenants/{tenantID}/campaigns-models', {
      params: { path: { tenantID: campaign.tenantID } },
      headers: { authorization: bearer(campaign.owner.token), 'x-request-id': requestID },
      body: modelBody(campaign.channel.channelID, { campaignModelName: name }) as never,
    });
    expect(response.response.status).toBe(200);
    return response.data!.campaignModel.campaignModelID;
  };

  beforeAll(async () => {
    campaign = await startCampaignPlatform();
    firstModelID = await create('Order update', 'audit-req-1');
    createdAt = new Date().toISOString();
    secondModelID = await create('Order shipped', 'audit-req-2');
    const update = await campaign.platform.api.services.PUT('/v1/tenants/{tenantID}/campaigns-models/{campaignModelID}', {
      params: { path: { tenantID: campaign.tenantID, campaignModelID: firstModelID } },
      headers: { authorization: bearer(campaign.member.token), 'x-request-id': 'audit-req-3' },
      body: { campaignModelMeta: { team: 'support' }, campaignModelTags: ['vip'] } as never,
    });
    expect(update.response.status).toBe(200);
  });
  afterAll(() => campaign.close());

  it('lists each action once, newest first, with its actor, target, request id and summary', async () => {
    const response = await events();
    expect(response.response.status).toBe(200);
    const { data, meta } = response.data!;
    expect(meta).toEqual({ count: 3, currentPage: 1, hasMore: false, perPage: 20, totalCount: 3, totalPages: 1 });
    expect(data.map((event) => [event.action, event.target.id, event.actor.id, event.requestID])).toEqual([
      ['campaignModel.updated', firstModelID, campaign.member.operatorID, 'audit-req-3'],
      ['campaignModel.created', secondModelID, campaign.owner.operatorID, 'audit-req-2'],
      ['campaignModel.created', firstModelID, campaign.owner.operatorID, 'audit-req-1'],
    ]);
    expect(data[2]).toMatchObject({
      tenantID: campaign.tenantID,
      actor: { kind: 'operator' },
      target: { kind: 'campaignModel' },
      summary: { campaignModelName: 'order_update' },
    });
    const times = data.map((event) => Date.parse(event.occurredAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('filters by action, actor and time range', async () => {
    const created = await events({ action: 'campaignModel.created' });
    expect(created.data!.data.map((event) => event.target.id)).toEqual([secondModelID, firstModelID]);
    const byMember = await events({ actorID: campaign.member.operatorID });
    expect(byMember.data!.data.map((event) => event.action)).toEqual(['campaignModel.updated']);
    const later = await events({ from: createdAt });
    expect(later.data!.data.map((event) => event.requestID)).toEqual(['audit-req-3', 'audit-req-2']);
    const earlier = await events({ to: createdAt });
    expect(earlier.data!.data.map((event) => event.requestID)).toEqual(['audit-req-1']);
  });

  it('pages with 206 while more pages exist, in a stable order', async () => {
    const first = await events({ perPage: '2' });
    expect(first.response.status).toBe(206);
    expect(first.data!.meta).toMatchObject({ count: 2, hasMore: true, totalCount: 3, totalPages: 2 });
    const second = await events({ perPage: '2', page: '2' });
    expect(second.response.status).toBe(200);
    expect([...first.data!.data, ...second.data!.data].map((event) => event.requestID)).toEqual(['audit-req-3', 'audit-req-2', 'audit-req-1']);
  });

  describeStandardRefusals({
    method: 'GET',
    path: '/v1/tenants/{tenantID}/audit-events',
    client: () => campaign.platform.api.services,
    tenantID: () => campaign.tenantID,
    valid: () => bearer(campaign.owner.token),
    // An owner of another tenant, a plugin and a plugin connection of this tenant: the log is its owners' alone.
    outsider: async () => {
      const plugin = await campaign.platform.fixtures.plugin();
      const connection = await campaign.platform.fixtures.connection(campaign.tenantID, plugin.pluginID);
      return [bearer(campaign.outsider.token), plugin.authorization, connection.authorization];
    },
    wrongRole: () => bearer(campaign.member.token),
    // An empty Authorization header.
    invalid: () => [''],
  });

  it("shows an owner of another tenant that tenant's log, not this one's", async () => {
    const otherTenant = await events({}, bearer(campaign.outsider.token), campaign.otherTenantID);
    expect(otherTenant.response.status).toBe(200);
    expect(otherTenant.data!.data).toEqual([]);
  });

  it('is 400 1002 naming each malformed parameter, and for a range that ends before it starts, before any access check', async () => {
    const malformed = await events({ action: 'tenant.deleted', actorID: 'me', from: '2026-02-30T00:00:00Z', perPage: '201' });
    expect(malformed.response.status).toBe(400);
    expect(singleError(malformed.error).fields!.map((field) => (field as { field: string }).field).sort()).toEqual(['action', 'actorID', 'from', 'perPage']);
    const backwards = await events({ from: '2026-11-02T00:00:00Z', to: '2026-11-01T00:00:00Z' }, bearer(campaign.member.token));
    expect(backwards.response.status).toBe(400);
    expect(singleError(backwards.error)).toMatchObject({ error_code: 1002, fields: [{ field: 'from', received: '2026-11-02T00:00:00Z' }] });
  });

  it('records nothing for an action that fails', async () => {
    const missing = await campaign.platform.api.services.PUT('/v1/tenants/{tenantID}/campaigns-models/{campaignModelID}', {
      params: { path: { tenantID: campaign.tenantID, campaignModelID: '4d3c2b1a-0f9e-4d8c-b7a6-5f4e3d2c1b0a' } },
      headers: { authorization: bearer(campaign.owner.token) },
      body: { campaignModelMeta: {}, campaignModelTags: [] } as never,
    });
    expect(missing.response.status).toBe(404);
    expect((await events()).data!.meta.totalCount).toBe(3);
  });

  it('refuses to change a recorded event', async () => {
    await expect(campaign.platform.dataSource.query(`UPDATE audit_events SET action = 'campaignModel.updated'`)).rejects.toThrow(/append-only/);
  });

  it('deletes events once they are older than the retention period, and only those', async () => {
    const services = campaign.platform.apps['services-api']!;
    const retention = services.get(AuditRetention);
    expect(await retention.sweep()).toBe(0);
    const clock = services.get(Clock);
    vi.spyOn(clock, 'now').mockImplementation(() => new Date(Date.now() + 401 * 86_400_000));
    try {
      expect(await retention.sweep()).toBe(3);
    } finally {
      vi.restoreAllMocks();
    }
    expect((await events()).data!.meta.totalCount).toBe(0);
  });
});
