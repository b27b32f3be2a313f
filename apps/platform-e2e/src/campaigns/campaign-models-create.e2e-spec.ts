import { singleError, withTableMissing } from '@platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sentAsIs } from '../support/sent-as-is';
import { authorized, CampaignPlatform, ERRORS, modelBody, startCampaignPlatform, UNKNOWN_ID } from './campaign-platform';
import { describeStandardRefusals } from '../support/standard-refusals';

describe('POST /v1/tenants/:tenantID/campaigns-models (operation 2)', () => {
  let context: CampaignPlatform;
  const create = (body: unknown, token = context.owner.token, tenantID = context.tenantID, headers = authorized(token)) =>
    context.platform.api.services.POST('/v1/tenants/{tenantID}/campaigns-models', { params: { path: { tenantID } }, headers, ...sentAsIs(body) });

  beforeAll(async () => {
    context = await startCampaignPlatform();
  });
  beforeEach(() => context.stub.reset());
  afterAll(() => context?.close());

  describe('provider submission', () => {
    it('stores the model, submits it, and records the provider id, status and timestamp', async () => {
      const response = await create(modelBody(context.channel.channelID, { campaignModelName: 'Shipping notice' }), context.member.token);
      expect(response.response.status).toBe(200);
      const model = response.data!.campaignModel;
      const [sent] = context.stub.createRequests();
      expect(sent.path).toBe(`/v21.0/${context.channel.accountID}/message_templates`);
      expect(sent.headers.authorization).toBe('Bearer test-system-user-token');
      expect(sent.body).toMatchObject({
        name: 'shipping_notice',
        language: 'pt_BR',
        category: 'UTILITY',
        parameter_format: 'NAMED',
        components: expect.arrayContaining([
          { type: 'BODY', text: 'Olá {{customer_name}}, seu pedido {{order_id}} foi enviado.', example: expect.any(Object) },
          { type: 'FOOTER', text: 'Acme Atendimento' },
        ]),
      });
      const stored = [...context.stub.templates.values()];
      expect(stored).toHaveLength(1);
      expect(model).toMatchObject({
        tenantID: context.tenantID,
        campaignModelChannel: 'whatsapp',
        campaignModelChannelID: context.channel.channelID,
        campaignModelName: 'shipping_notice',
        campaignModelType: 'UTILITY',
        campaignModelDescription: 'Sent when an order ships',
        campaignModelStatus: 'evaluating',
        campaignModelExternalID: stored[0].id,
        campaignModelGatewayMeta: { language: 'pt_BR' },
        campaignModelGatewayRaw: { id: stored[0].id, status: 'PENDING', category: 'UTILITY' },
        campaignModelMeta: { team: 'logistics' },
        campaignModelTags: ['pedidos'],
        modelVariables: [
          { key: 'order_id', fallback: '', required: true, type: 'text' },
          { key: 'customer_name', fallback: 'cliente', required: false, type: 'text' },
        ],
        approvedAt: null,
        refusedAt: null,
        deletedAt: null,
        createdBy: context.member.operatorID,
        updatedBy: context.member.operatorID,
        __campaignModelErrorCode: null,
        __campaignModelErrorMessage: null,
      });
      expect(model.campaignModelSlots).toEqual((modelBody('x').campaignModelSlots as object));
      for (const stamp of ['evaluatingAt', 'processingAt', 'createdAt', 'updatedAt'] as const) expect(new Date(model[stamp]!).toISOString()).toBe(model[stamp]);
    });

    it('records a refusal on the model: status, refusedAt and the provider error', async () => {
      context.stub.mode = 'refuse';
      const response = await create(modelBody(context.channel.channelID, { campaignModelName: 'Refused one' }));
      expect(response.response.status).toBe(200);
      expect(response.data!.campaignModel).toMatchObject({
        campaignModelName: 'refused_one',
        campaignModelStatus: 'refused',
        campaignModelExternalID: null,
        __campaignModelErrorCode: 2388299,
        __campaignModelErrorMessage: 'Variables cannot be at the start or end of the template.',
      });
      expect(new Date(response.data!.campaignModel.refusedAt!).toISOString()).toBe(response.data!.campaignModel.refusedAt);
      expect(context.stub.createRequests()).toHaveLength(1);
    });

    it('defaults the language to pt_BR and sends the one given otherwise', async () => {
      const given = await create(modelBody(context.channel.channelID, { campaignModelName: 'english one', campaignModelGatewayMeta: { language: 'en_US', theme: 'dark' } }));
      expect(given.data!.campaignModel.campaignModelGatewayMeta).toEqual({ language: 'en_US', theme: 'dark' });
      const omitted = await create(modelBody(context.channel.channelID, { campaignModelName: 'default one', campaignModelGatewayMeta: undefined }));
      expect(omitted.data!.campaignModel.campaignModelGatewayMeta).toEqual({ language: 'pt_BR' });
      expect(context.stub.createRequests().map((sent) => (sent.body as { language: string }).language)).toEqual(['en_US', 'pt_BR']);
    });

    it('accepts the minimal body: channel, channelID, name, type and a body text', async () => {
      const response = await create({
        campaignModelChannel: 'whatsapp',
        campaignModelChannelID: context.channel.channelID,
        campaignModelName: 'minimal',
        campaignModelType: 'MARKETING',
        campaignModelSlots: { body: { text: 'Promoção de hoje!' } },
      });
      expect(response.response.status).toBe(200);
      expect(response.data!.campaignModel).toMatchObject({ campaignModelName: 'minimal', campaignModelMeta: {}, campaignModelTags: [], modelVariables: [] });
      expect(context.stub.createRequests()[0].body).toEqual({
        name: 'minimal',
        language: 'pt_BR',
        category: 'MARKETING',
        components: [{ type: 'BODY', text: 'Promoção de hoje!' }],
      });
    });
  });

  describe('names', () => {
    it('normalises the name to the provider rules', async () => {
      const response = await create(modelBody(context.channel.channelID, { campaignModelName: '  Promoção de Verão!! 2026 ' }));
      expect(response.data!.campaignModel.campaignModelName).toBe('promocao_de_verao_2026');
    });

    it('derives the next free name when the name is taken on the channel, and not across channels', async () => {
      const first = await create(modelBody(context.channel.channelID, { campaignModelName: 'Order update' }));
      const second = await create(modelBody(context.channel.channelID, { campaignModelName: 'order_update' }));
      const third = await create(modelBody(context.channel.channelID, { campaignModelName: 'ORDER UPDATE' }));
      expect([first, second, third].map((response) => response.data!.campaignModel.campaignModelName)).toEqual([
        'order_update',
        'order_update_2',
        'order_update_3',
      ]);
      const otherChannel = await context.campaigns.messagingChannel(context.tenantID);
      const elsewhere = await create(modelBody(otherChannel.channelID, { campaignModelName: 'Order update' }));
      expect(elsewhere.data!.campaignModel.campaignModelName).toBe('order_update');
    });

    it('fills the first gap in the suffixes', async () => {
      await context.campaigns.campaignModels(context.tenantID, context.channel.channelID, 1, { prefix: 'gap' });
      await context.platform.dataSource.query(`UPDATE campaign_models SET name = 'gap' WHERE name = 'gap_1' AND tenant_id = $1`, [context.tenantID]);
      await context.campaigns.campaignModels(context.tenantID, context.channel.channelID, 1, { prefix: 'gap_3_x' });
      await context.platform.dataSource.query(`UPDATE campaign_models SET name = 'gap_3' WHERE name = 'gap_3_x_1' AND tenant_id = $1`, [context.tenantID]);
      const response = await create(modelBody(context.channel.channelID, { campaignModelName: 'gap' }));
      expect(response.data!.campaignModel.campaignModelName).toBe('gap_2');
    });

    it('gives 20 concurrent creates of one name 20 distinct names, each submitted once', async () => {
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => create(modelBody(context.channel.channelID, { campaignModelName: 'Black Friday' }))),
      );
      expect(responses.map((response) => response.response.status)).toEqual(Array(20).fill(200));
      const names = responses.map((response) => response.data!.campaignModel.campaignModelName).sort();
      const expected = ['black_friday', ...Array.from({ length: 19 }, (_, index) => `black_friday_${index + 2}`)].sort();
      expect(names).toEqual(expected);
      expect(context.stub.createRequests().map((sent) => (sent.body as { name: string }).name).sort()).toEqual(expected);
    });

    it('is 409 1066 when nothing valid can be derived from the name', async () => {
      for (const name of ['!!!', '日本語', '___']) {
        const response = await create(modelBody(context.channel.channelID, { campaignModelName: name }));
        expect(response.response.status).toBe(409);
        expect(singleError(response.error)).toEqual(ERRORS.nameUnavailable);
      }
      expect(context.stub.requests).toHaveLength(0);
    });

    it('is 409 1066 when the name and its 99 suffixed forms are all taken', async () => {
      await context.campaigns.campaignModels(context.tenantID, context.channel.channelID, 100, { prefix: 'full' });
      await context.platform.dataSource.query(`UPDATE campaign_models SET name = 'full' WHERE name = 'full_1' AND tenant_id = $1`, [context.tenantID]);
      const response = await create(modelBody(context.channel.channelID, { campaignModelName: 'Full' }));
      expect(response.response.status).toBe(409);
      expect(singleError(response.error)).toEqual(ERRORS.nameUnavailable);
      expect(context.stub.requests).toHaveLength(0);
    });

    it('keeps a 512-character name within 512 characters when suffixed', async () => {
      const long = 'n'.repeat(520);
      const first = await create(modelBody(context.channel.channelID, { campaignModelName: long.slice(0, 512) }));
      const second = await create(modelBody(context.channel.channelID, { campaignModelName: long.slice(0, 512) }));
      expect(first.data!.campaignModel.campaignModelName).toBe('n'.repeat(512));
      expect(second.data!.campaignModel.campaignModelName).toBe(`${'n'.repeat(510)}_2`);
    });
  });

  describe('validation (400 1002)', () => {
    const cases: [string, (channelID: string) => unknown, { field: string; received: string; allowed: string }[]][] = [
      [
        'an empty body',
        () => ({}),
        [
          { field: 'campaignModelChannel', received: 'undefined', allowed: 'one of: whatsapp' },
          { field: 'campaignModelChannelID', received: 'undefined', allowed: 'uuid' },
          { field: 'campaignModelName', received: 'undefined', allowed: 'string of 1-512 characters' },
          { field: 'campaignModelType', received: 'undefined', allowed: 'one of: MARKETING, UTILITY, AUTHENTICATION' },
          { field: 'campaignModelSlots', received: 'undefined', allowed: 'object' },
        ],
      ],
      [
        'an unknown channel and type',
        (channelID) => modelBody(channelID, { campaignModelChannel: 'telegram', campaignModelType: 'utility' }),
        [
          { field: 'campaignModelChannel', received: 'telegram', allowed: 'one of: whatsapp' },
          { field: 'campaignModelType', received: 'utility', allowed: 'one of: MARKETING, UTILITY, AUTHENTICATION' },
        ],
      ],
      [
        'a name too long or not a string',
        (channelID) => modelBody(channelID, { campaignModelName: 42 }),
        [{ field: 'campaignModelName', received: '42', allowed: 'string of 1-512 characters' }],
      ],
      [
        'a body without text',
        (channelID) => modelBody(channelID, { campaignModelSlots: { body: { content: 'x' } } }),
        [{ field: 'campaignModelSlots.body.text', received: 'undefined', allowed: 'string of 1-1024 characters' }],
      ],
      [
        'slots without a body',
        (channelID) => modelBody(channelID, { campaignModelSlots: { footer: { text: 'x' } } }),
        [{ field: 'campaignModelSlots.body', received: 'undefined', allowed: 'object' }],
      ],
      [
        'a body text over 1024 characters',
        (channelID) => modelBody(channelID, { campaignModelSlots: { body: { text: 'x'.repeat(1025) } } }),
        [{ field: 'campaignModelSlots.body.text', received: 'x'.repeat(1025), allowed: 'string of 1-1024 characters' }],
      ],
      [
        'a header text over 60 characters and an unknown header type',
        (channelID) => modelBody(channelID, { campaignModelSlots: { body: { text: 'x' }, header: { type: 'audio', text: 'h'.repeat(61) } } }),
        [
          { field: 'campaignModelSlots.header.text', received: 'h'.repeat(61), allowed: 'string of 1-60 characters' },
          { field: 'campaignModelSlots.header.type', received: 'audio', allowed: 'one of: text, image, video, gif, document, location' },
        ],
      ],
      [
        'eleven buttons',
        (channelID) => modelBody(channelID, { campaignModelSlots: { body: { text: 'x' }, buttons: Array(11).fill({ text: 'Sim', type: 'QUICK_REPLY' }) } }),
        [{ field: 'campaignModelSlots.buttons', received: JSON.stringify(Array(11).fill({ text: 'Sim', type: 'QUICK_REPLY' })), allowed: 'array of 0-10 items' }],
      ],
      [
        'a button of an unknown type and an unknown otpType',
        (channelID) => modelBody(channelID, { campaignModelSlots: { body: { text: 'x' }, buttons: [{ type: 'LINK', otpType: 'SMS' }] } }),
        [
          { field: 'campaignModelSlots.buttons.0.type', received: 'LINK', allowed: `one of: QUICK_REPLY, URL, PHONE_NUMBER, COPY_CODE, OTP, FLOW, CATALOG, MPM, ORDER_DETAILS, VOICE_CALL` },
          { field: 'campaignModelSlots.buttons.0.otpType', received: 'SMS', allowed: 'one of: COPY_CODE, ONE_TAP, ZERO_TAP' },
        ],
      ],
      [
        'a footer over 60 characters',
        (channelID) => modelBody(channelID, { campaignModelSlots: { body: { text: 'x' }, footer: { text: 'f'.repeat(61) } } }),
        [{ field: 'campaignModelSlots.footer.text', received: 'f'.repeat(61), allowed: 'string of 1-60 characters' }],
      ],
      [
        'a variable key that is not a provider parameter name',
        (channelID) => modelBody(channelID, { campaignModelSlots: { body: { text: 'x', variables: [{ key: 'Nome Cliente' }] } } }),
        [
          {
            field: 'campaignModelSlots.body.variables.0.key',
            received: 'Nome Cliente',
            allowed: 'lowercase letters, digits and _, starting with a letter, 1-60 characters',
          },
        ],
      ],
      [
        'an unknown field, at the top and inside the slots',
        (channelID) => modelBody(channelID, { campaignModelStatus: 'approved', campaignModelSlots: { body: { text: 'x', bold: true } } }),
        [
          { field: 'campaignModelSlots.body.bold', received: 'true', allowed: 'no such field' },
          { field: 'campaignModelStatus', received: 'approved', allowed: 'no such field' },
        ],
      ],
      [
        'tags that are not strings, and meta that is not an object',
        (channelID) => modelBody(channelID, { campaignModelTags: ['ok', 3], campaignModelMeta: [1] }),
        [
          { field: 'campaignModelMeta', received: '[1]', allowed: 'object' },
          { field: 'campaignModelTags', received: '["ok",3]', allowed: 'array of at most 50 strings of 1-64 characters' },
        ],
      ],
      [
        'a malformed channel id',
        (channelID) => modelBody(channelID, { campaignModelChannelID: 'abc' }),
        [{ field: 'campaignModelChannelID', received: 'abc', allowed: 'uuid' }],
      ],
      [
        'a malformed language',
        (channelID) => modelBody(channelID, { campaignModelGatewayMeta: { language: 'portuguese' } }),
        [{ field: 'campaignModelGatewayMeta.language', received: 'portuguese', allowed: 'language code such as pt_BR or en' }],
      ],
    ];

    it.each(cases)('refuses %s, naming each field', async (_, body, fields) => {
      const response = await create(body(context.channel.channelID));
      expect(response.response.status).toBe(400);
      const error = singleError(response.error);
      expect({ ...error, fields: [...(error.fields as { field: string }[])].sort((a, b) => a.field.localeCompare(b.field)) }).toEqual(
        ERRORS.validation([...fields].sort((a, b) => a.field.localeCompare(b.field))),
      );
      expect(context.stub.requests).toHaveLength(0);
    });

    it('refuses malformed JSON and a body that is not an object', async () => {
      for (const [body, received] of [
        ['{"campaignModelName":', 'malformed JSON'],
        ['[1,2]', 'array'],
      ]) {
        const response = await create(body);
        expect(singleError(response.error)).toEqual(ERRORS.validation([{ field: 'body', received, allowed: 'a JSON object' }]));
      }
    });

    it('refuses a channel that is not connected on this tenant: another tenant\'s, a disconnected one, an unknown one', async () => {
      const foreign = await context.campaigns.messagingChannel(context.otherTenantID);
      const disconnected = await context.campaigns.messagingChannel(context.tenantID, { status: 'disconnected' });
      for (const channelID of [foreign.channelID, disconnected.channelID, UNKNOWN_ID]) {
        const response = await create(modelBody(channelID));
        expect(response.response.status).toBe(400);
        expect(singleError(response.error)).toEqual(
          ERRORS.validation([{ field: 'campaignModelChannelID', received: channelID, allowed: 'a messaging channel connected on this tenant' }]),
        );
      }
      expect(context.stub.requests).toHaveLength(0);
    });
  });

  describeStandardRefusals({
    method: 'POST',
    path: '/v1/tenants/{tenantID}/campaigns-models',
    client: () => context.platform.api.services,
    tenantID: () => context.tenantID,
    body: () => modelBody(context.channel.channelID),
    valid: () => `Bearer ${context.owner.token}`,
    outsider: () => `Bearer ${context.outsider.token}`,
    // Operation 2 does not tell a tenant that does not exist from one the caller is not in.
    unknownTenant: 403,
    // No model stored, nothing submitted to the provider.
    written: async () => ({
      models: (await context.platform.dataSource.query('SELECT count(*)::int AS count FROM campaign_models'))[0].count,
      submissions: context.stub.requests.length,
    }),
  });

  describe('other error rows', () => {
    it('is 401 1003 without a valid operator token, before validation', async () => {
      for (const headers of [{}, { authorization: 'Bearer nope' }] as Record<string, string>[]) {
        const response = await create({}, undefined, context.tenantID, headers);
        expect(response.response.status).toBe(401);
        expect(singleError(response.error)).toEqual(ERRORS.unauthorized);
      }
    });

    it('is 500 5999 when the database fails', async () => {
      const response = await withTableMissing(context.platform.dataSource, 'campaign_models', () => create(modelBody(context.channel.channelID, { campaignModelName: 'broken' })));
      expect(response.response.status).toBe(500);
      expect(singleError(response.error)).toEqual(ERRORS.unknown);
    });
  });
});
