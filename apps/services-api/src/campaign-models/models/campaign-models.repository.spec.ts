import { trustedTenantScope } from '@platform/auth';
import type { SqlRunner } from '@platform/database';
import { CampaignFixtures, createTestDataSource, FixtureBuilder, MessagingChannelFixture } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CampaignModelsRepository, NewCampaignModel } from './campaign-models.repository';

/**
 * Campaign models' SQL (the list aside) against PostgreSQL: the connected
 * channel, the name reserved by the unique index within a savepoint, the
 * names sharing a prefix as written, the camelCase view and the update of
 * meta and tags, the submission's outcomes, and the provider's status
 * updates (by template and account, never backwards in time), each in its
 * tenant where it has one.
 */
describe('CampaignModelsRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let models: CampaignModelsRepository;
  let fixtures: FixtureBuilder;
  let campaigns: CampaignFixtures;
  let tenantID: string;
  let otherTenantID: string;
  let channel: MessagingChannelFixture;
  let operatorID: string;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    models = new CampaignModelsRepository(dataSource);
    fixtures = new FixtureBuilder(dataSource);
    campaigns = new CampaignFixtures(dataSource);
    otherTenantID = await fixtures.tenant();
    operatorID = (await fixtures.operator()).operatorID;
  });
  afterAll(() => close?.());
  beforeEach(async () => {
    tenantID = await fixtures.tenant();
    channel = await campaigns.messagingChannel(tenantID);
  });

  const scope = (tenant = tenantID) => trustedTenantScope(tenant);
  const change = <T>(work: (runner: SqlRunner) => Promise<T>) => models.transaction(work);
  const newModel = (overrides: Partial<NewCampaignModel> = {}): NewCampaignModel => ({
    channel: 'whatsapp',
    channelID: channel.channelID,
    type: 'UTILITY',
    description: null,
    language: 'pt_BR',
    gatewayMeta: { language: 'pt_BR' },
    meta: { team: 'sales' },
    tags: ['orders'],
    slots: { body: { text: 'Olá' } },
    modelVariables: [],
    createdBy: operatorID,
    ...overrides,
  });
  const insert = (name: string, model = newModel()) => change((runner) => models.insertUnlessNameTaken(runner, scope(), model, name));
  const raw = async (id: string) =>
    ((await dataSource.query('SELECT submission_attempts AS attempts, gateway_raw AS "gatewayRaw", error_code AS "errorCode" FROM campaign_models WHERE id = $1', [id])) as {
      attempts: number;
      gatewayRaw: Record<string, unknown>;
      errorCode: number | null;
    }[])[0];

  it("finds a connected channel of the tenant's only", async () => {
    const disconnected = await campaigns.messagingChannel(tenantID, { status: 'disconnected' });
    expect(await models.findConnectedChannel(scope(), channel.channelID)).toEqual({
      id: channel.channelID,
      channel: 'whatsapp',
      accountID: channel.accountID,
      credentialsRef: `secret:whatsapp/${channel.accountID}`,
    });
    expect(await models.findConnectedChannel(scope(), disconnected.channelID)).toBeUndefined();
    expect(await models.findConnectedChannel(scope(otherTenantID), channel.channelID)).toBeUndefined();
  });

  it('reserves a name once per tenant and channel, the transaction going on after a taken one', async () => {
    const otherChannel = await campaigns.messagingChannel(tenantID);
    const first = await insert('welcome');
    expect(first).toEqual(expect.any(String));

    const [taken, next] = await change(async (runner) => [
      await models.insertUnlessNameTaken(runner, scope(), newModel(), 'welcome'),
      await models.insertUnlessNameTaken(runner, scope(), newModel(), 'welcome_1'),
    ]);
    expect(taken).toBeUndefined();
    expect(next).toEqual(expect.any(String));
    expect(await insert('welcome', newModel({ channelID: otherChannel.channelID }))).toEqual(expect.any(String));
    expect(await models.findView(scope(), next!)).toMatchObject({ campaignModelName: 'welcome_1', campaignModelStatus: 'awaiting_submission' });
  });

  it('finds the names sharing a prefix on the channel, % and _ in the prefix matching themselves', async () => {
    for (const name of ['a_b', 'a_b_1', 'axb', 'a_c']) await insert(name);
    const sharing = (prefix: string) => change(async (runner) => (await models.namesSharingPrefix(runner, scope(), channel.channelID, prefix)).sort());

    expect(await sharing('a_b')).toEqual(['a_b', 'a_b_1']);
    expect(await sharing('a_')).toEqual(['a_b', 'a_b_1', 'a_c']);
    expect(await sharing('zzz')).toEqual([]);
    expect(await change((runner) => models.namesSharingPrefix(runner, scope(otherTenantID), channel.channelID, 'a'))).toEqual([]);
  });

  it('views a model as the camelCase DTO with its language, updates meta and tags each when given, in its tenant only', async () => {
    const id = (await insert('order_update', newModel({ description: 'Pedidos' })))!;
    const view = await models.findView(scope(), id);
    expect(view).toMatchObject({
      campaignModelID: id,
      tenantID,
      campaignModelChannel: 'whatsapp',
      campaignModelChannelID: channel.channelID,
      campaignModelName: 'order_update',
      campaignModelType: 'UTILITY',
      campaignModelDescription: 'Pedidos',
      campaignModelStatus: 'awaiting_submission',
      campaignModelExternalID: null,
      campaignModelGatewayMeta: { language: 'pt_BR' },
      campaignModelMeta: { team: 'sales' },
      campaignModelTags: ['orders'],
      campaignModelSlots: { body: { text: 'Olá' } },
      modelVariables: [],
      processingAt: expect.any(Date),
      deletedAt: null,
      createdBy: operatorID,
      updatedBy: operatorID,
      __campaignModelErrorCode: null,
      __campaignModelErrorMessage: null,
      language: 'pt_BR',
    });
    expect(await models.findView(scope(otherTenantID), id)).toBeUndefined();

    const editor = (await fixtures.operator()).operatorID;
    expect(await models.updateMetaAndTags(scope(), id, { tags: ['vip'] }, editor)).toMatchObject({ campaignModelMeta: { team: 'sales' }, campaignModelTags: ['vip'], updatedBy: editor });
    expect(await models.updateMetaAndTags(scope(), id, { meta: { team: 'support' } }, editor)).toMatchObject({ campaignModelMeta: { team: 'support' }, campaignModelTags: ['vip'] });
    expect(await models.updateMetaAndTags(scope(otherTenantID), id, { tags: [] }, editor)).toBeUndefined();
    await dataSource.query('UPDATE campaign_models SET deleted_at = now() WHERE id = $1', [id]);
    expect(await models.findView(scope(), id)).toBeUndefined();
    expect(await models.updateMetaAndTags(scope(), id, { tags: [] }, editor)).toBeUndefined();
  });

  it("records the submission's outcome only while the model awaits it", async () => {
    const accepted = (await insert('accepted'))!;
    const refused = (await insert('refused'))!;
    const unavailable = (await insert('unavailable'))!;

    expect(await models.findSubmissionSubject(accepted)).toEqual({
      id: accepted,
      tenantID,
      status: 'awaiting_submission',
      name: 'accepted',
      language: 'pt_BR',
      type: 'UTILITY',
      slots: { body: { text: 'Olá' } },
      accountID: channel.accountID,
      credentialsRef: `secret:whatsapp/${channel.accountID}`,
    });
    expect(await models.findSubmissionSubject(randomUUID())).toBeUndefined();

    expect(await change((runner) => models.recordAccepted(runner, accepted, 'tpl-1', 'evaluating', { id: 'tpl-1' }))).toEqual({
      campaignModelID: accepted,
      tenantID,
      name: 'accepted',
      previousStatus: 'awaiting_submission',
      status: 'evaluating',
    });
    expect(await models.findView(scope(), accepted)).toMatchObject({ campaignModelExternalID: 'tpl-1', evaluatingAt: expect.any(Date), approvedAt: null });
    expect(await change((runner) => models.recordAccepted(runner, accepted, 'tpl-2', 'approved', {}))).toBeUndefined();

    expect(await change((runner) => models.recordRefused(runner, refused, 100, 'Invalid parameter', { error: 100 }))).toMatchObject({ status: 'refused', previousStatus: 'awaiting_submission' });
    expect(await models.findView(scope(), refused)).toMatchObject({ __campaignModelErrorCode: 100, __campaignModelErrorMessage: 'Invalid parameter', refusedAt: expect.any(Date) });
    expect(await change((runner) => models.recordRefused(runner, refused, 100, 'again', {}))).toBeUndefined();

    await models.recordUnavailable(unavailable);
    await models.recordUnavailable(unavailable);
    await models.recordUnavailable(refused);
    expect([(await raw(unavailable)).attempts, (await raw(refused)).attempts, (await raw(accepted)).attempts]).toEqual([2, 1, 1]);
  });

  it("applies the provider's status to its template on that account, never an older update, nor the status it has", async () => {
    const id = (await insert('status_model'))!;
    await change((runner) => models.recordAccepted(runner, id, 'tpl-9', 'evaluating', {}));
    const apply = (status: 'approved' | 'refused' | 'paused', at: string, overrides: { accountID?: string; reason?: string | null } = {}) =>
      change((runner) =>
        models.applyProviderStatus(runner, {
          externalID: 'tpl-9',
          accountID: overrides.accountID ?? channel.accountID,
          status,
          occurredAt: new Date(at),
          reason: overrides.reason ?? null,
          lastStatusUpdate: { event: status },
        }),
      );

    expect(await apply('approved', '2026-03-02T12:00:00.000Z', { accountID: 'another-account' })).toEqual([]);
    expect(await apply('approved', '2026-03-02T12:00:00.000Z')).toEqual([{ campaignModelID: id, tenantID, name: 'status_model', previousStatus: 'evaluating', status: 'approved' }]);
    expect(await models.findView(scope(), id)).toMatchObject({ approvedAt: new Date('2026-03-02T12:00:00.000Z') });
    expect(await apply('approved', '2026-03-02T12:05:00.000Z')).toEqual([]);
    expect(await apply('paused', '2026-03-02T11:00:00.000Z')).toEqual([]);
    expect(await apply('refused', '2026-03-02T12:10:00.000Z', { reason: 'INVALID_FORMAT' })).toMatchObject([{ previousStatus: 'approved', status: 'refused' }]);
    expect(await models.findView(scope(), id)).toMatchObject({ __campaignModelErrorMessage: 'INVALID_FORMAT', refusedAt: new Date('2026-03-02T12:10:00.000Z') });
    expect(await apply('paused', '2026-03-02T12:15:00.000Z')).toMatchObject([{ previousStatus: 'refused', status: 'paused' }]);
    expect(await models.findView(scope(), id)).toMatchObject({ __campaignModelErrorCode: null, __campaignModelErrorMessage: null });
    expect((await raw(id)).gatewayRaw).toEqual({ lastStatusUpdate: { event: 'paused' } });
  });
});
