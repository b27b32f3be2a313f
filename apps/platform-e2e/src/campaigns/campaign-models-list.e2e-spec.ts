import { singleError, withTableMissing } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorized, CampaignPlatform, ERRORS, startCampaignPlatform } from './campaign-platform';
import { describeStandardRefusals } from '../support/standard-refusals';

describe('GET /v1/tenants/:tenantID/campaigns-models (operation 4)', () => {
  let context: CampaignPlatform;
  /** Every live model of the tenant, newest first, as the database has them. */
  let all: { id: string; name: string; status: string; created_at: Date }[];
  // Query values as a client types them, valid or not: the contract's types are checked by the server here.
  const list = (query: Record<string, string> = {}, token: string | null = context.owner.token, tenantID = context.tenantID) =>
    context.platform.api.services.GET('/v1/tenants/{tenantID}/campaigns-models', {
      params: { path: { tenantID }, query: query as never },
      headers: token === null ? {} : authorized(token),
    });

  beforeAll(async () => {
    context = await startCampaignPlatform();
    const { campaigns, tenantID, channel } = context;
    await campaigns.campaignModels(tenantID, channel.channelID, 12, { prefix: 'order_update', status: 'approved', tags: ['pedidos'] });
    await campaigns.campaignModels(tenantID, channel.channelID, 5, { prefix: 'promo_50_off', status: 'evaluating', type: 'MARKETING', tags: ['promo', 'vip'] });
    await campaigns.campaignModels(tenantID, channel.channelID, 4, { prefix: 'otp_code', status: 'refused', type: 'AUTHENTICATION' });
    await campaigns.campaignModels(tenantID, channel.channelID, 3, { prefix: 'gone', status: 'approved' });
    await context.platform.dataSource.query(`UPDATE campaign_models SET deleted_at = now() WHERE tenant_id = $1 AND name LIKE 'gone%'`, [tenantID]);
    // Same created_at for two models: the id decides between them.
    await context.platform.dataSource.query(
      `UPDATE campaign_models SET created_at = (SELECT created_at FROM campaign_models WHERE tenant_id = $1 AND name = 'otp_code_1')
        WHERE tenant_id = $1 AND name = 'otp_code_2'`,
      [tenantID],
    );
    const foreignChannel = await campaigns.messagingChannel(context.otherTenantID);
    await campaigns.campaignModels(context.otherTenantID, foreignChannel.channelID, 7, { prefix: 'order_update' });
    all = await context.platform.dataSource.query(
      `SELECT id, name, status, created_at FROM campaign_models WHERE tenant_id = $1 AND deleted_at IS NULL ORDER BY created_at DESC, id DESC`,
      [tenantID],
    );
  });
  afterAll(() => context?.close());

  it('lists the tenant\'s live models, newest first, with exact meta and 206 while more pages exist', async () => {
    const first = await list({ perPage: '10' });
    expect(first.response.status).toBe(206);
    expect(first.data!.meta).toEqual({ count: 10, currentPage: 1, hasMore: true, perPage: 10, totalCount: 21, totalPages: 3 });
    expect(first.data!.data.map((model: { campaignModelID: string }) => model.campaignModelID)).toEqual(all.slice(0, 10).map((row) => row.id));
    expect(first.data!.data[0]).toMatchObject({ tenantID: context.tenantID, campaignModelChannelID: context.channel.channelID, campaignModelSlots: expect.any(Object) });
    const last = await list({ perPage: '10', page: '3' });
    expect(last.response.status).toBe(200);
    expect(last.data!.meta).toEqual({ count: 1, currentPage: 3, hasMore: false, perPage: 10, totalCount: 21, totalPages: 3 });
    expect(last.data!.data.map((model: { campaignModelID: string }) => model.campaignModelID)).toEqual([all[20].id]);
  });

  it('defaults to page 1 of 20', async () => {
    const response = await list();
    expect(response.data!.meta).toEqual({ count: 20, currentPage: 1, hasMore: true, perPage: 20, totalCount: 21, totalPages: 2 });
  });

  it.each([
    ['createdAt', '-1'],
    ['createdAt', '1'],
    ['campaignModelID', '-1'],
    ['campaignModelID', '1'],
  ])('visits every model once walking perPage=1 pages by %s %s', async (sortField, sortDirection) => {
    const seen: string[] = [];
    for (let page = 1; page <= all.length; page += 1) {
      const response = await list({ perPage: '1', page: String(page), sortField, sortDirection });
      expect(response.response.status).toBe(page < all.length ? 206 : 200);
      seen.push(...response.data!.data.map((model: { campaignModelID: string }) => model.campaignModelID));
    }
    const byID = [...all].sort((a, b) => (a.id < b.id ? -1 : 1));
    const ascending = sortField === 'createdAt' ? [...all].reverse() : byID;
    const expected = sortDirection === '1' ? ascending : [...ascending].reverse();
    expect(seen).toEqual(expected.map((row) => row.id));
  });

  it('answers an empty page past the end, up to page 9007199254740991', async () => {
    for (const page of ['4', '9007199254740991']) {
      const response = await list({ perPage: '10', page });
      expect(response.response.status).toBe(200);
      expect(response.data!).toEqual({ data: [], meta: { count: 0, currentPage: Number(page), hasMore: false, perPage: 10, totalCount: 21, totalPages: 3 } });
    }
  });

  it('searches names case-insensitively, with % and _ taken literally', async () => {
    const search = await list({ search: 'ORDER_upd', perPage: '50' });
    expect(search.data!.meta).toMatchObject({ count: 12, totalCount: 12 });
    expect(search.data!.data.every((model: { campaignModelName: string }) => model.campaignModelName.startsWith('order_update_'))).toBe(true);
    expect((await list({ search: '_50_' })).data!.meta.totalCount).toBe(5);
    expect((await list({ search: '50%' })).data!.meta.totalCount).toBe(0);
    expect((await list({ search: 'order%update' })).data!.meta.totalCount).toBe(0);
    expect((await list({ search: 'otp_code_1' })).data!.data.map((model: { campaignModelName: string }) => model.campaignModelName)).toEqual(['otp_code_1']);
    expect((await list({ search: 'gone' })).data!.meta.totalCount).toBe(0);
  });

  it('filters by an allow-list of fields, alone and with a search, with an exact totalCount', async () => {
    const byStatus = await list({ filters: JSON.stringify({ campaignModelStatus: 'refused' }) });
    expect(byStatus.data!.meta).toEqual({ count: 4, currentPage: 1, hasMore: false, perPage: 20, totalCount: 4, totalPages: 1 });
    expect(byStatus.data!.data.every((model: { campaignModelStatus: string }) => model.campaignModelStatus === 'refused')).toBe(true);
    const anyOf = await list({ filters: JSON.stringify({ campaignModelStatus: ['refused', 'evaluating'] }), perPage: '3', page: '3' });
    expect(anyOf.data!.meta).toEqual({ count: 3, currentPage: 3, hasMore: false, perPage: 3, totalCount: 9, totalPages: 3 });
    expect((await list({ filters: JSON.stringify({ campaignModelType: 'MARKETING', campaignModelTags: ['vip', 'promo'] }) })).data!.meta.totalCount).toBe(5);
    expect((await list({ filters: JSON.stringify({ campaignModelTags: ['vip', 'pedidos'] }) })).data!.meta.totalCount).toBe(0);
    expect((await list({ filters: JSON.stringify({ campaignModelChannelID: context.channel.channelID.toUpperCase() }) })).data!.meta.totalCount).toBe(21);
    expect((await list({ filters: JSON.stringify({ campaignModelChannel: 'whatsapp', campaignModelStatus: 'approved' }), search: 'update_1' })).data!.meta.totalCount).toBe(4);
    const [one] = await context.platform.dataSource.query(`SELECT external_id FROM campaign_models WHERE tenant_id = $1 AND name = 'otp_code_3'`, [context.tenantID]);
    const byExternal = await list({ filters: JSON.stringify({ campaignModelExternalID: one.external_id }) });
    expect(byExternal.data!.data.map((model: { campaignModelName: string }) => model.campaignModelName)).toEqual(['otp_code_3']);
    expect((await list({ filters: '{}' })).data!.meta.totalCount).toBe(21);
  });

  it.each([
    ['malformed JSON', '{campaignModelStatus:'],
    ['a JSON array', '["approved"]'],
    ['a field off the allow-list', '{"campaignModelName":"x"}'],
    ['SQL in a field name', '{"1=1; DROP TABLE campaign_models; --":"x"}'],
    ['a value of the wrong type', '{"campaignModelStatus":3}'],
    ['an unknown status', '{"campaignModelStatus":"live"}'],
    ['an operator object', '{"campaignModelStatus":{"$ne":"approved"}}'],
  ])('refuses filters that are %s (400 1002 naming filters)', async (_, filters) => {
    const response = await list({ filters });
    expect(response.response.status).toBe(400);
    const error = singleError(response.error);
    expect(error).toEqual(ERRORS.validation([{ field: 'filters', received: filters, allowed: expect.stringContaining('JSON object with any of: campaignModelStatus') }]));
  });

  it('validates every other query parameter, naming each', async () => {
    const response = await list({ page: '0', perPage: '201', sortField: 'name', sortDirection: '0', search: '' });
    const error = singleError(response.error);
    expect({ ...error, fields: (error.fields as { field: string }[]).sort((a, b) => a.field.localeCompare(b.field)) }).toEqual(
      ERRORS.validation([
        { field: 'page', received: '0', allowed: 'integer 1-9007199254740991' },
        { field: 'perPage', received: '201', allowed: 'integer 1-200' },
        { field: 'search', received: '', allowed: 'string of 1-512 characters' },
        { field: 'sortDirection', received: '0', allowed: 'one of: -1, 1' },
        { field: 'sortField', received: 'name', allowed: 'one of: createdAt, campaignModelID' },
      ]),
    );
    const unknown = await list({ order: 'asc' });
    expect(singleError(unknown.error)).toEqual(ERRORS.validation([{ field: 'order', received: 'asc', allowed: 'no such field' }]));
  });

  it('keeps totalCount exact as models come and go', async () => {
    const { dataSource } = context.platform;
    await context.campaigns.campaignModels(context.tenantID, context.channel.channelID, 3, { prefix: 'transient' });
    expect((await list()).data!.meta.totalCount).toBe(24);
    await dataSource.query(`UPDATE campaign_models SET deleted_at = now() WHERE tenant_id = $1 AND name = 'transient_1'`, [context.tenantID]);
    await dataSource.query(`DELETE FROM campaign_models WHERE tenant_id = $1 AND name = 'transient_2'`, [context.tenantID]);
    expect((await list()).data!.meta.totalCount).toBe(22);
    await dataSource.query(`DELETE FROM campaign_models WHERE tenant_id = $1 AND name LIKE 'transient%'`, [context.tenantID]);
    const [counted] = await dataSource.query('SELECT count(*)::int AS n FROM campaign_models WHERE tenant_id = $1 AND deleted_at IS NULL', [context.tenantID]);
    expect((await list()).data!.meta.totalCount).toBe(counted.n);
  });

  it('is empty for a tenant without models', async () => {
    const owner = await context.platform.fixtures.operator();
    const tenant = await context.platform.fixtures.tenant();
    await context.platform.fixtures.membership(tenant, owner.operatorID, 'owner');
    const response = await list({}, await context.platform.tokenFor(owner.operatorID), tenant);
    expect([response.response.status, response.data]).toEqual([200, { data: [], meta: { count: 0, currentPage: 1, hasMore: false, perPage: 20, totalCount: 0, totalPages: 0 } }]);
  });

  describeStandardRefusals({
    method: 'GET',
    path: '/v1/tenants/{tenantID}/campaigns-models',
    client: () => context.platform.api.services,
    tenantID: () => context.tenantID,
    valid: () => `Bearer ${context.owner.token}`,
    outsider: () => `Bearer ${context.outsider.token}`,
    // Operation 4 does not tell a tenant that does not exist from one the caller is not in.
    unknownTenant: 403,
  });

  it('answers 500 5999 as its row says', async () => {
    const broken = await withTableMissing(context.platform.dataSource, 'campaign_model_counts', () => list());
    expect([broken.response.status, singleError(broken.error)]).toEqual([500, ERRORS.unknown]);
  });
});
