import { trustedTenantScope } from '@platform/auth';
import { CampaignFixtures, createTestDataSource, FixtureBuilder } from '@platform/testing';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CampaignModelsListRepository, ListRequest } from './campaign-models-list.repository';

/**
 * Operation 4's statement against PostgreSQL: the camelCase rows, the count
 * (the maintained one, or the matching rows' when a filter narrows the list),
 * both sorts in both directions with every page alike whichever end it is
 * walked from, a page past the end, each filter, the escaped search, deleted
 * models left out, and tenant scoping.
 */
describe('CampaignModelsListRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let list: CampaignModelsListRepository;
  let tenantID: string;
  let otherTenantID: string;
  let channelID: string;
  let otherChannelID: string;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    list = new CampaignModelsListRepository(dataSource);
    const fixtures = new FixtureBuilder(dataSource);
    const campaigns = new CampaignFixtures(dataSource);
    tenantID = await fixtures.tenant();
    otherTenantID = await fixtures.tenant();
    channelID = (await campaigns.messagingChannel(tenantID)).channelID;
    otherChannelID = (await campaigns.messagingChannel(tenantID)).channelID;
    // Each batch is created a millisecond apart in name order.
    await campaigns.campaignModels(tenantID, channelID, 5, { prefix: 'order', status: 'approved', tags: ['shop'] });
    await campaigns.campaignModels(tenantID, otherChannelID, 2, { prefix: 'promo', status: 'refused', type: 'MARKETING', tags: ['shop', 'sale'] });
    await campaigns.campaignModels(tenantID, channelID, 1, { prefix: 'abc', status: 'approved' });
    await campaigns.campaignModels(tenantID, channelID, 1, { prefix: 'abcx', status: 'approved' });
    await campaigns.campaignModels(tenantID, channelID, 1, { prefix: 'gone', status: 'approved' });
    await dataSource.query(`UPDATE campaign_models SET deleted_at = now() WHERE name = 'gone_1'`);
    await campaigns.campaignModels(otherTenantID, (await campaigns.messagingChannel(otherTenantID)).channelID, 3, { prefix: 'order', status: 'approved' });
  });
  afterAll(() => close?.());

  const scope = (tenant = tenantID) => trustedTenantScope(tenant);
  const request = (overrides: Partial<ListRequest> = {}): ListRequest => ({ page: 1, perPage: 50, sortField: 'createdAt', descending: false, ...overrides });
  const names = async (overrides: Partial<ListRequest> = {}, tenant = tenantID) => {
    const found = await list.list(scope(tenant), request(overrides));
    return { totalCount: found.totalCount, names: found.data.map((model) => model.campaignModelName) };
  };

  it('answers camelCase models and the live count of the tenant, deleted models left out', async () => {
    const found = await list.list(scope(), request());
    expect(found.totalCount).toBe(9);
    expect(found.data).toHaveLength(9);
    expect(found.data.map((model) => model.campaignModelName)).not.toContain('gone_1');
    expect(found.data.find((model) => model.campaignModelName === 'promo_1')).toMatchObject({
      tenantID,
      campaignModelChannel: 'whatsapp',
      campaignModelChannelID: otherChannelID,
      campaignModelType: 'MARKETING',
      campaignModelStatus: 'refused',
      campaignModelTags: ['shop', 'sale'],
      campaignModelExternalID: expect.any(String),
      createdAt: expect.any(Date),
      deletedAt: null,
    });
    expect(found.data[0]).not.toHaveProperty('totalCount');
    expect(await names({}, otherTenantID)).toEqual({ totalCount: 3, names: ['order_1', 'order_2', 'order_3'] });
  });

  it('sorts by creation either way, and every page is the same slice whichever end it is walked from', async () => {
    const orders = ['order_1', 'order_2', 'order_3', 'order_4', 'order_5'];
    const filters = { statuses: ['approved'], channelIDs: [channelID], tags: ['shop'] };
    expect(await names({ filters })).toEqual({ totalCount: 5, names: orders });
    expect(await names({ filters, descending: true })).toEqual({ totalCount: 5, names: [...orders].reverse() });
    for (const descending of [false, true]) {
      const all = descending ? [...orders].reverse() : orders;
      for (const page of [1, 2, 3]) expect(await names({ filters, descending, page, perPage: 2 })).toEqual({ totalCount: 5, names: all.slice((page - 1) * 2, page * 2) });
    }
    expect(await names({ filters, page: 4, perPage: 2 })).toEqual({ totalCount: 5, names: [] });
    expect(await names({ page: 2, perPage: 9 })).toEqual({ totalCount: 9, names: [] });
  });

  it('sorts by id either way, pages included', async () => {
    const found = await list.list(scope(), request({ sortField: 'campaignModelID' }));
    const ids = found.data.map((model) => model.campaignModelID);
    expect(ids).toEqual([...ids].sort());
    const backwards = (await list.list(scope(), request({ sortField: 'campaignModelID', descending: true, page: 2, perPage: 4 }))).data.map((model) => model.campaignModelID);
    expect(backwards).toEqual([...ids].reverse().slice(4, 8));
  });

  it('narrows by each filter, the count following', async () => {
    expect(await names({ filters: { statuses: ['refused'] } })).toEqual({ totalCount: 2, names: ['promo_1', 'promo_2'] });
    expect(await names({ filters: { types: ['MARKETING', 'AUTHENTICATION'] } })).toMatchObject({ totalCount: 2 });
    expect(await names({ filters: { channelIDs: [otherChannelID] } })).toMatchObject({ totalCount: 2 });
    expect(await names({ filters: { tags: ['shop', 'sale'] } })).toEqual({ totalCount: 2, names: ['promo_1', 'promo_2'] });
    expect(await names({ filters: { tags: ['shop'] } })).toMatchObject({ totalCount: 7 });
    const [{ external }] = (await dataSource.query(`SELECT external_id AS external FROM campaign_models WHERE tenant_id = $1 AND name = 'order_3'`, [tenantID])) as { external: string }[];
    expect(await names({ filters: { externalID: external } })).toEqual({ totalCount: 1, names: ['order_3'] });
    expect(await names({ filters: { statuses: ['refused'], channelIDs: [channelID] } })).toEqual({ totalCount: 0, names: [] });
  });

  it('searches names for the text as written: % and _ match themselves', async () => {
    expect(await names({ search: 'abc_' })).toEqual({ totalCount: 1, names: ['abc_1'] });
    expect(await names({ search: 'ABC' })).toEqual({ totalCount: 2, names: ['abc_1', 'abcx_1'] });
    expect(await names({ search: '%' })).toEqual({ totalCount: 0, names: [] });
    expect(await names({ search: 'promo', filters: { statuses: ['refused'] }, page: 2, perPage: 1 })).toEqual({ totalCount: 2, names: ['promo_2'] });
  });
});
