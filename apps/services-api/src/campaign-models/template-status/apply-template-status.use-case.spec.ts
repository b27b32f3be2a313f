import type { Clock } from '@platform/scheduling';
import { describe, expect, it } from 'vitest';
import { fake, RecordingWebhookEvents, transactionOn } from '@platform/testing';
import type { SqlRunner } from '@platform/database';
import { ApplyTemplateStatusUseCase } from './apply-template-status.use-case';
import type { CampaignModelsRepository, ModelStatusChange, ProviderStatusChange } from '../models/campaign-models.repository';

const receivedAt = new Date('2026-03-01T12:00:00.000Z');

const tenantID = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';

/** The models the provider's templates are: tpl-1 evaluating, tpl-3 already refused (a redelivery moves nothing). */
const MODELS: Record<string, { campaignModelID: string; name: string; status: ModelStatusChange['status'] }> = {
  'tpl-1': { campaignModelID: '3b241101-e2bb-4255-8caf-4136c566a962', name: 'order_update', status: 'evaluating' },
  'tpl-3': { campaignModelID: '7a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d', name: 'promo', status: 'refused' },
};

function setUp() {
  const changes: ProviderStatusChange[] = [];
  const runners: SqlRunner[] = [];
  const transaction = { query: async () => [] };
  const models = fake<CampaignModelsRepository>({
    transaction: transactionOn(transaction),
    applyProviderStatus: async (runner: SqlRunner, change: ProviderStatusChange) => {
      changes.push(change);
      runners.push(runner);
      const model = MODELS[change.externalID];
      if (!model || model.status === change.status) return [];
      return [{ campaignModelID: model.campaignModelID, tenantID, name: model.name, previousStatus: model.status, status: change.status }];
    },
  });
  const clock = { now: () => receivedAt } as Clock;
  const webhooks = new RecordingWebhookEvents();
  const useCase = new ApplyTemplateStatusUseCase(models, clock, webhooks.asEvents());
  const deliver = (delivery: unknown) => useCase.execute({ delivery });
  return { changes, runners, transaction, webhooks, deliver };
}

const change = (event: string, templateID: string, reason = 'NONE') => ({ field: 'message_template_status_update', value: { event, message_template_id: templateID, reason } });

describe('ApplyTemplateStatusUseCase (template status webhook)', () => {
  it("applies each known status at the provider's event time, or at the time it was received", async () => {
    const { changes, deliver } = setUp();
    const answer = await deliver({
      object: 'whatsapp_business_account',
      entry: [
        { id: 'waba-1', time: 1_767_225_600, changes: [change('APPROVED', 'tpl-1'), change('SOMETHING_NEW', 'tpl-2')] },
        { id: 'waba-1', changes: [change('REJECTED', 'tpl-3', 'INVALID_FORMAT')] },
      ],
    });

    expect(answer).toEqual({ received: 3 });
    expect(changes).toEqual([
      {
        externalID: 'tpl-1',
        accountID: 'waba-1',
        status: 'approved',
        occurredAt: new Date(1_767_225_600_000),
        reason: null,
        lastStatusUpdate: { event: 'APPROVED', reason: null, at: '2026-01-01T00:00:00.000Z' },
      },
      {
        externalID: 'tpl-3',
        accountID: 'waba-1',
        status: 'refused',
        occurredAt: receivedAt,
        reason: 'INVALID_FORMAT',
        lastStatusUpdate: { event: 'REJECTED', reason: 'INVALID_FORMAT', at: receivedAt.toISOString() },
      },
    ]);
  });

  it('emits campaignModel.statusChanged for each model moved, in the transaction that moves it', async () => {
    const { runners, transaction, webhooks, deliver } = setUp();
    await deliver({
      entry: [{ id: 'waba-1', changes: [change('APPROVED', 'tpl-1'), change('REJECTED', 'tpl-3', 'INVALID_FORMAT'), change('APPROVED', 'tpl-9')] }],
    });

    expect(runners).toEqual([transaction, transaction, transaction]);
    expect(webhooks.events).toEqual([
      {
        runner: transaction,
        tenantID,
        event: {
          type: 'campaignModel.statusChanged',
          subject: `campaignModel:${MODELS['tpl-1'].campaignModelID}`,
          data: { campaignModelID: MODELS['tpl-1'].campaignModelID, name: 'order_update', previousStatus: 'evaluating', status: 'approved', reason: null },
        },
      },
    ]);
  });
});
