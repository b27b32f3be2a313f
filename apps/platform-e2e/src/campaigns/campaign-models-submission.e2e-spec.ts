import { singleError, WebhookEventFixtures, withTableMissing } from '@platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { APP_SECRET, authorized, CampaignPlatform, ERRORS, modelBody, readModelUntil, startCampaignPlatform } from './campaign-platform';

describe('template submission in the background, and status sync by webhook', () => {
  let context: CampaignPlatform;
  let webhookUrl: string;
  let webhookEvents: WebhookEventFixtures;
  /** The model's campaignModel.statusChanged events in the outbox, oldest first. */
  const statusEventsOf = async (campaignModelID: string) =>
    (await webhookEvents.eventsOf(context.tenantID, 'campaignModel.statusChanged')).filter((event) => event.data.campaignModelID === campaignModelID);
  const statusEvent = (campaignModelID: string, name: string, previousStatus: string, status: string, reason: string | null = null) => ({
    type: 'campaignModel.statusChanged',
    version: 1,
    orderingKey: `campaignModel:${campaignModelID}`,
    data: { campaignModelID, name, previousStatus, status, reason },
    emittedBy: 'services-api',
  });
  const create = (name: string) =>
    context.platform.api.services.POST('/v1/tenants/{tenantID}/campaigns-models', {
      params: { path: { tenantID: context.tenantID } },
      headers: authorized(context.owner.token),
      body: modelBody(context.channel.channelID, { campaignModelName: name }) as never,
    });
  const attemptsOf = async (campaignModelID: string) =>
    Number((await context.platform.dataSource.query('SELECT submission_attempts FROM campaign_models WHERE id = $1', [campaignModelID]))[0].submission_attempts);

  /** Waits until no submission job of the model is waiting or running. */
  const jobsSettled = (campaignModelID: string) =>
    eventually(async () => {
      const rows: { open: string }[] = await context.platform.dataSource.query(
        `SELECT count(*) AS open FROM pgboss.job WHERE name = 'campaign-model-submission' AND data->>'campaignModelID' = $1
            AND state IN ('created', 'retry', 'active')`,
        [campaignModelID],
      );
      expect(Number(rows[0].open)).toBe(0);
    });

  beforeAll(async () => {
    context = await startCampaignPlatform();
    webhookUrl = `${context.platform.servicesUrl}/v1/webhooks/whatsapp`;
    webhookEvents = new WebhookEventFixtures(context.platform.dataSource);
  });
  beforeEach(() => context.stub.reset());
  afterAll(() => context?.close());

  describe('provider down or slow', () => {
    it('keeps a model the provider could not take, retries until it is accepted, and submits it once', async () => {
      context.stub.mode = 'down';
      const response = await create('Down then back');
      expect(response.response.status).toBe(200);
      const model = response.data!.campaignModel;
      expect(model).toMatchObject({ campaignModelName: 'down_then_back', campaignModelStatus: 'awaiting_submission', campaignModelExternalID: null, evaluatingAt: null });
      expect(new Date(model.processingAt!).toISOString()).toBe(model.processingAt);

      // Let the background job fail against the still-down provider at least once more.
      await eventually(async () => expect(await attemptsOf(model.campaignModelID)).toBeGreaterThanOrEqual(2));
      expect((await readModelUntil(context, model.campaignModelID, () => true)).campaignModelStatus).toBe('awaiting_submission');

      context.stub.mode = 'accept';
      const accepted = await readModelUntil(context, model.campaignModelID, (current) => current.campaignModelStatus !== 'awaiting_submission');
      const templates = [...context.stub.templates.values()].filter((template) => template.name === 'down_then_back');
      expect(templates).toHaveLength(1);
      expect(accepted).toMatchObject({ campaignModelStatus: 'evaluating', campaignModelExternalID: templates[0].id });
      await jobsSettled(model.campaignModelID);
      expect([...context.stub.templates.values()].filter((template) => template.name === 'down_then_back')).toHaveLength(1);
    });

    it('adopts the template an unanswered attempt created instead of creating it twice', async () => {
      // Every attempt goes unanswered until the mode changes: the background one cannot adopt the template before the create answers.
      context.stub.mode = 'accept-then-hang';
      const response = await create('Lost answer');
      expect(response.data!.campaignModel.campaignModelStatus).toBe('awaiting_submission');
      const [created] = [...context.stub.templates.values()];
      context.stub.mode = 'accept';
      const adopted = await readModelUntil(context, response.data!.campaignModel.campaignModelID, (current) => current.campaignModelStatus !== 'awaiting_submission');
      expect(adopted).toMatchObject({ campaignModelStatus: 'evaluating', campaignModelExternalID: created.id });
      expect(context.stub.templates.size).toBe(1);
      expect(context.stub.requests.some((sent) => sent.method === 'GET')).toBe(true);
    });

    it('does not resubmit a model the provider accepted or refused during the request', async () => {
      const accepted = await create('Settled accepted');
      context.stub.mode = 'refuse';
      const refused = await create('Settled refused');
      expect(accepted.data!.campaignModel.campaignModelStatus).toBe('evaluating');
      expect(refused.data!.campaignModel.campaignModelStatus).toBe('refused');
      await jobsSettled(accepted.data!.campaignModel.campaignModelID);
      await jobsSettled(refused.data!.campaignModel.campaignModelID);
      expect(context.stub.createRequests()).toHaveLength(2);
    });

    it('records a refusal that comes on a background attempt', async () => {
      context.stub.mode = 'down';
      const response = await create('Refused later');
      context.stub.mode = 'refuse';
      const refused = await readModelUntil(context, response.data!.campaignModel.campaignModelID, (current) => current.campaignModelStatus !== 'awaiting_submission');
      expect(refused).toMatchObject({ campaignModelStatus: 'refused', __campaignModelErrorCode: 2388299 });
      expect(new Date(refused.refusedAt).toISOString()).toBe(refused.refusedAt);
    });

    it('leaves one campaignModel.statusChanged event when a background attempt settles the model', async () => {
      context.stub.mode = 'down';
      const response = await create('Evented later');
      const model = response.data!.campaignModel;
      expect(await statusEventsOf(model.campaignModelID)).toEqual([]);
      context.stub.mode = 'refuse';
      const refused = await readModelUntil(context, model.campaignModelID, (current) => current.campaignModelStatus !== 'awaiting_submission');
      expect(await statusEventsOf(model.campaignModelID)).toEqual([
        statusEvent(model.campaignModelID, 'evented_later', 'awaiting_submission', 'refused', refused.__campaignModelErrorMessage),
      ]);
    });
  });

  describe('status webhook', () => {
    async function evaluatingModel(name: string): Promise<{ campaignModelID: string; externalID: string }> {
      const response = await create(name);
      return { campaignModelID: response.data!.campaignModel.campaignModelID, externalID: response.data!.campaignModel.campaignModelExternalID! };
    }
    const read = async (campaignModelID: string) =>
      (
        await context.platform.api.services.GET('/v1/tenants/{tenantID}/campaigns-models/{campaignModelID}', {
          params: { path: { tenantID: context.tenantID, campaignModelID } },
          headers: authorized(context.owner.token),
        })
      ).data!.campaignModel;

    it('applies a signed APPROVED update with the provider\'s event time, once however often it is delivered', async () => {
      const model = await evaluatingModel('Webhook approved');
      const time = Math.floor(Date.now() / 1000) + 5;
      const first = await context.stub.sendStatusUpdate(webhookUrl, APP_SECRET, { templateID: model.externalID, event: 'APPROVED', time });
      expect(first).toEqual({ status: 200, body: { received: 1 } });
      const approved = await read(model.campaignModelID);
      expect(approved).toMatchObject({ campaignModelStatus: 'approved', approvedAt: new Date(time * 1000).toISOString() });

      const again = await context.stub.sendStatusUpdate(webhookUrl, APP_SECRET, { templateID: model.externalID, event: 'APPROVED', time: time + 60 });
      expect(again.status).toBe(200);
      expect(await read(model.campaignModelID)).toEqual(approved);
    });

    it('leaves exactly one campaignModel.statusChanged event per applied update, none for a redelivery', async () => {
      const model = await evaluatingModel('Webhook evented');
      const submitted = statusEvent(model.campaignModelID, 'webhook_evented', 'awaiting_submission', 'evaluating');
      expect(await statusEventsOf(model.campaignModelID)).toEqual([submitted]);
      const time = Math.floor(Date.now() / 1000) + 5;
      await context.stub.sendStatusUpdate(webhookUrl, APP_SECRET, { templateID: model.externalID, event: 'REJECTED', reason: 'INVALID_FORMAT', time });
      await context.stub.sendStatusUpdate(webhookUrl, APP_SECRET, { templateID: model.externalID, event: 'REJECTED', reason: 'INVALID_FORMAT', time });
      expect(await statusEventsOf(model.campaignModelID)).toEqual([
        submitted,
        statusEvent(model.campaignModelID, 'webhook_evented', 'evaluating', 'refused', 'INVALID_FORMAT'),
      ]);
    });

    it('applies no update whose event cannot be recorded: the status and the event commit together', async () => {
      const model = await evaluatingModel('Webhook rolled back');
      const before = await statusEventsOf(model.campaignModelID);
      const failed = await withTableMissing(context.platform.dataSource, 'webhook_events', () =>
        context.stub.sendStatusUpdate(webhookUrl, APP_SECRET, { templateID: model.externalID, event: 'APPROVED' }),
      );
      expect(failed.status).toBe(500);
      expect((await read(model.campaignModelID)).campaignModelStatus).toBe('evaluating');
      expect(await statusEventsOf(model.campaignModelID)).toEqual(before);
    });

    it('confirms the provider\'s subscription handshake only with the verify token', async () => {
      const handshake = (token: string) =>
        fetch(`${webhookUrl}?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`);
      const confirmed = await handshake('subscribe-token-0123456789');
      expect(confirmed.status).toBe(200);
      expect(await confirmed.text()).toBe('1158201444');
      const refused = await handshake('subscribe-token-wrong');
      expect(refused.status).toBe(403);
      expect(singleError(await refused.json()).error_code).toBe(1004);
      const malformed = await context.platform.api.services.GET('/v1/webhooks/whatsapp', {
        params: { query: { 'hub.mode': 'unsubscribe', 'hub.challenge': '1' } as never },
      });
      expect(singleError(malformed.error).fields).toEqual([
        { field: 'hub.mode', received: 'unsubscribe', allowed: 'one of: subscribe' },
        { field: 'hub.verify_token', allowed: 'string of 1-256 characters' },
      ]);
    });

    it('records a rejection and its reason', async () => {
      const model = await evaluatingModel('Webhook rejected');
      await context.stub.sendStatusUpdate(webhookUrl, APP_SECRET, { templateID: model.externalID, event: 'REJECTED', reason: 'INVALID_FORMAT' });
      expect(await read(model.campaignModelID)).toMatchObject({ campaignModelStatus: 'refused', __campaignModelErrorMessage: 'INVALID_FORMAT' });
    });

    it('ignores an update older than the last one applied', async () => {
      const model = await evaluatingModel('Webhook out of order');
      const time = Math.floor(Date.now() / 1000);
      await context.stub.sendStatusUpdate(webhookUrl, APP_SECRET, { templateID: model.externalID, event: 'PAUSED', time });
      await context.stub.sendStatusUpdate(webhookUrl, APP_SECRET, { templateID: model.externalID, event: 'APPROVED', time: time - 30 });
      expect((await read(model.campaignModelID)).campaignModelStatus).toBe('paused');
    });

    it('refuses a delivery whose signature does not match (401 1003) and changes nothing', async () => {
      const model = await evaluatingModel('Webhook forged');
      for (const signature of ['sha256=00', `sha256=${'0'.repeat(64)}`, 'nonsense']) {
        const response = await context.stub.sendStatusUpdate(webhookUrl, APP_SECRET, { templateID: model.externalID, event: 'APPROVED', signature });
        expect(response.status).toBe(401);
        expect(singleError(response.body)).toEqual(ERRORS.unauthorized);
      }
      const wrongSecret = await context.stub.sendStatusUpdate(webhookUrl, 'another-secret-0123456789', { templateID: model.externalID, event: 'APPROVED' });
      expect(wrongSecret.status).toBe(401);
      expect((await read(model.campaignModelID)).campaignModelStatus).toBe('evaluating');
    });

    it('acknowledges updates of templates it does not know, and of another provider account, without applying them', async () => {
      const model = await evaluatingModel('Webhook other account');
      const other = await context.stub.sendStatusUpdate(webhookUrl, APP_SECRET, { templateID: model.externalID, event: 'APPROVED', accountID: '999' });
      expect(other.status).toBe(200);
      const unknown = await context.stub.sendStatusUpdate(webhookUrl, APP_SECRET, { templateID: '123456', event: 'APPROVED' });
      expect(unknown).toEqual({ status: 200, body: { received: 1 } });
      expect((await read(model.campaignModelID)).campaignModelStatus).toBe('evaluating');
    });
  });
});
