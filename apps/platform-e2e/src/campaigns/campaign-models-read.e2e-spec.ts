import { ServicesApi } from '@platform/api-client';
import { singleError, withTableMissing } from '@platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authorized, CampaignPlatform, ERRORS, modelBody, startCampaignPlatform, UNKNOWN_ID } from './campaign-platform';
import { describeStandardRefusals } from '../support/standard-refusals';

describe('read (operation 5) and update (operation 3) of a campaign model', () => {
  let context: CampaignPlatform;
  let model: ServicesApi.components['schemas']['CampaignModelView'];
  const MODEL_PATH = '/v1/tenants/{tenantID}/campaigns-models/{campaignModelID}';
  const read = (campaignModelID: string, token = context.owner.token, tenantID = context.tenantID) =>
    context.platform.api.services.GET(MODEL_PATH, { params: { path: { tenantID, campaignModelID } }, headers: authorized(token) });
  // `body` is whatever a test sends, inside the contract or on purpose outside it.
  const update = (campaignModelID: string, body: object, token = context.owner.token, tenantID = context.tenantID) =>
    context.platform.api.services.PUT(MODEL_PATH, { params: { path: { tenantID, campaignModelID } }, headers: authorized(token), body: body as never });
  const create = (body: Record<string, unknown>) =>
    context.platform.api.services.POST('/v1/tenants/{tenantID}/campaigns-models', {
      params: { path: { tenantID: context.tenantID } },
      headers: authorized(context.owner.token),
      body: body as never,
    });

  beforeAll(async () => {
    context = await startCampaignPlatform();
    const created = await create(
      modelBody(context.channel.channelID, {
        campaignModelName: 'Pedido enviado',
        campaignModelSlots: {
          header: { type: 'image', preview: 'https://acme.com.br/banner.png' },
          body: {
            text: 'Olá {{customer_name}}, seu pedido {{order_id}} saiu.',
            variables: [
              { key: 'customer_name', fallback: 'cliente' },
              { key: 'order_id', fallback: '' },
            ],
          },
          buttons: [
            { type: 'URL', text: 'Rastrear', url: 'https://acme.com.br/r/{{1}}', example: 'BR123' },
            { type: 'QUICK_REPLY', text: 'Falar com atendente' },
            { type: 'COPY_CODE', example: 'CUPOM10' },
          ],
        },
      }),
    );
    model = created.data!.campaignModel;
  });
  beforeEach(() => context.stub.reset());
  afterAll(() => context?.close());

  describe('GET .../campaigns-models/:campaignModelID', () => {
    it('answers the model and a pasteable provider request that sends its template', async () => {
      const response = await read(model.campaignModelID, context.member.token);
      expect(response.response.status).toBe(200);
      expect(response.data!.campaignModel).toEqual(model);
      const snippet = JSON.parse(response.data!.campaignReqSnippet);
      expect(snippet).toEqual({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '<recipient_phone_number>',
        type: 'template',
        template: {
          name: 'pedido_enviado',
          language: { code: 'pt_BR' },
          components: [
            { type: 'header', parameters: [{ type: 'image', image: { link: '<image_url>' } }] },
            {
              type: 'body',
              parameters: [
                { type: 'text', parameter_name: 'customer_name', text: 'cliente' },
                { type: 'text', parameter_name: 'order_id', text: '<order_id>' },
              ],
            },
            { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'BR123' }] },
            { type: 'button', sub_type: 'copy_code', index: '2', parameters: [{ type: 'coupon_code', coupon_code: 'CUPOM10' }] },
          ],
        },
      });
      expect(context.stub.requests).toHaveLength(0);
    });

    it('gives a template without variables a snippet without components', async () => {
      const created = await create(
        modelBody(context.channel.channelID, { campaignModelName: 'plain text', campaignModelGatewayMeta: { language: 'en' }, campaignModelSlots: { body: { text: 'Hello!' } } }),
      );
      const response = await read(created.data!.campaignModel.campaignModelID);
      expect(JSON.parse(response.data!.campaignReqSnippet).template).toEqual({ name: 'plain_text', language: { code: 'en' } });
    });

    it('accepts the id in upper case', async () => {
      expect((await read(model.campaignModelID.toUpperCase())).response.status).toBe(200);
    });

    it('is 404 1058 for an unknown id, a model of another tenant and a deleted model', async () => {
      const foreignChannel = await context.campaigns.messagingChannel(context.otherTenantID);
      await context.campaigns.campaignModels(context.otherTenantID, foreignChannel.channelID, 1, { prefix: 'foreign' });
      const [foreign] = await context.platform.dataSource.query('SELECT id FROM campaign_models WHERE tenant_id = $1', [context.otherTenantID]);
      await context.campaigns.campaignModels(context.tenantID, context.channel.channelID, 1, { prefix: 'deleted' });
      const [deleted] = await context.platform.dataSource.query(`UPDATE campaign_models SET deleted_at = now() WHERE name = 'deleted_1' AND tenant_id = $1 RETURNING id`, [
        context.tenantID,
      ]);
      for (const id of [UNKNOWN_ID, foreign.id, deleted[0]?.id ?? deleted.id]) {
        const response = await read(id);
        expect(response.response.status).toBe(404);
        expect(singleError(response.error)).toEqual(ERRORS.modelNotFound);
      }
    });

    describeStandardRefusals({
      method: 'GET',
      path: MODEL_PATH,
      client: () => context.platform.api.services,
      tenantID: () => context.tenantID,
      pathParams: () => ({ campaignModelID: model.campaignModelID }),
      valid: () => `Bearer ${context.owner.token}`,
      outsider: () => `Bearer ${context.outsider.token}`,
      // Operation 5 does not tell a tenant that does not exist from one the caller is not in.
      unknownTenant: 403,
    });

    it('is 400 1002 for a malformed id and 500 5999', async () => {
      expect(singleError((await read('nope')).error)).toEqual(ERRORS.validation([{ field: 'campaignModelID', received: 'nope', allowed: 'uuid' }]));
      const broken = await withTableMissing(context.platform.dataSource, 'campaign_models', () => read(model.campaignModelID));
      expect([broken.response.status, singleError(broken.error)]).toEqual([500, ERRORS.unknown]);
    });
  });

  describe('PUT .../campaigns-models/:campaignModelID', () => {
    it('changes only meta and tags, stamps updatedAt and updatedBy, and never calls the provider', async () => {
      const before = (await read(model.campaignModelID)).data!.campaignModel;
      const response = await update(model.campaignModelID, { campaignModelMeta: { owner: 'marketing', nested: { a: 1 } }, campaignModelTags: ['black-friday', 'vip'] }, context.member.token);
      expect(response.response.status).toBe(200);
      const after = response.data!.campaignModel;
      expect(after).toEqual({
        ...before,
        campaignModelMeta: { owner: 'marketing', nested: { a: 1 } },
        campaignModelTags: ['black-friday', 'vip'],
        updatedAt: after.updatedAt,
        updatedBy: context.member.operatorID,
      });
      expect(new Date(after.updatedAt).getTime()).toBeGreaterThan(new Date(before.updatedAt).getTime());
      expect((await read(model.campaignModelID)).data!.campaignModel).toEqual(after);
      expect(context.stub.requests).toHaveLength(0);
    });

    it('changes only what is given', async () => {
      await update(model.campaignModelID, { campaignModelMeta: { keep: true }, campaignModelTags: ['keep'] });
      const tagsOnly = await update(model.campaignModelID, { campaignModelTags: [] });
      expect(tagsOnly.data!.campaignModel).toMatchObject({ campaignModelMeta: { keep: true }, campaignModelTags: [] });
      const metaOnly = await update(model.campaignModelID, { campaignModelMeta: {} });
      expect(metaOnly.data!.campaignModel).toMatchObject({ campaignModelMeta: {}, campaignModelTags: [] });
    });

    it('refuses any other field (400 1002) and changes nothing', async () => {
      const before = (await read(model.campaignModelID)).data!.campaignModel;
      const response = await update(model.campaignModelID, { campaignModelName: 'renamed', campaignModelSlots: { body: { text: 'x' } }, campaignModelTags: ['x'] });
      expect(response.response.status).toBe(400);
      expect(singleError(response.error)).toEqual(
        ERRORS.validation([
          { field: 'campaignModelName', received: 'renamed', allowed: 'no such field' },
          { field: 'campaignModelSlots', received: '{"body":{"text":"x"}}', allowed: 'no such field' },
        ]),
      );
      expect((await read(model.campaignModelID)).data!.campaignModel).toEqual(before);
      expect(context.stub.requests).toHaveLength(0);
    });

    it('checks the types of meta and tags', async () => {
      const response = await update(model.campaignModelID, { campaignModelMeta: 'x', campaignModelTags: 'vip' });
      expect(singleError(response.error)).toEqual(
        ERRORS.validation([
          { field: 'campaignModelMeta', received: 'x', allowed: 'object' },
          { field: 'campaignModelTags', received: 'vip', allowed: 'array of at most 50 strings of 1-64 characters' },
        ]),
      );
    });

    it('is 404 1058 for an unknown model or one of another tenant', async () => {
      const [foreign] = await context.platform.dataSource.query('SELECT id FROM campaign_models WHERE tenant_id = $1 LIMIT 1', [context.otherTenantID]);
      for (const id of [UNKNOWN_ID, foreign.id]) {
        const response = await update(id, { campaignModelTags: ['x'] });
        expect([response.response.status, singleError(response.error)]).toEqual([404, ERRORS.modelNotFound]);
      }
    });

    describeStandardRefusals({
      method: 'PUT',
      path: MODEL_PATH,
      client: () => context.platform.api.services,
      tenantID: () => context.tenantID,
      pathParams: () => ({ campaignModelID: model.campaignModelID }),
      body: () => ({ campaignModelTags: ['x'] }),
      valid: () => `Bearer ${context.owner.token}`,
      outsider: () => `Bearer ${context.outsider.token}`,
      // Operation 3 does not tell a tenant that does not exist from one the caller is not in.
      unknownTenant: 403,
      written: async () => (await context.platform.dataSource.query('SELECT tags, meta, updated_at FROM campaign_models WHERE id = $1', [model.campaignModelID]))[0],
    });

    it('is 500 5999 as its row says', async () => {
      const broken = await withTableMissing(context.platform.dataSource, 'campaign_models', () => update(model.campaignModelID, { campaignModelTags: ['x'] }));
      expect([broken.response.status, singleError(broken.error)]).toEqual([500, ERRORS.unknown]);
    });
  });
});
