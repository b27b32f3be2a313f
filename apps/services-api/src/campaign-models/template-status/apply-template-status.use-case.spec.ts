import type { Clock } from '@platform/app-foundation';
import { describe, expect, it } from 'vitest';
import { fake } from '@platform/testing';
import { ApplyTemplateStatusUseCase } from './apply-template-status.use-case';
import type { CampaignModelsRepository, ProviderStatusChange } from '../models/campaign-models.repository';

const receivedAt = new Date('2026-03-01T12:00:00.000Z');

function setUp() {
  const changes: ProviderStatusChange[] = [];
  const models = fake<CampaignModelsRepository>({ applyProviderStatus: async (change: ProviderStatusChange) => void changes.push(change) });
  const clock = { now: () => receivedAt } as Clock;
  const useCase = new ApplyTemplateStatusUseCase(models, clock);
  const deliver = (delivery: unknown) => useCase.execute({ delivery });
  return { changes, deliver };
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
});
