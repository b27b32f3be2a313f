import { createHmac } from 'node:crypto';
import type { Clock } from '@platform/app-foundation';
import { describe, expect, it } from 'vitest';
import { fake } from '@platform/testing';
import { ApplyTemplateStatusUseCase } from './apply-template-status.use-case';
import type { CampaignModelsRepository, ProviderStatusChange } from './campaign-models.repository';

const SECRET = 'app-secret';
const receivedAt = new Date('2026-03-01T12:00:00.000Z');

function setUp({ appSecret }: { appSecret: string | undefined } = { appSecret: SECRET }) {
  const changes: ProviderStatusChange[] = [];
  const models = fake<CampaignModelsRepository>({ applyProviderStatus: async (change: ProviderStatusChange) => void changes.push(change) });
  const clock = { now: () => receivedAt } as Clock;
  const useCase = new ApplyTemplateStatusUseCase(appSecret, models, clock);
  const deliver = (body: unknown, signedWith = SECRET) => {
    const rawBody = Buffer.from(JSON.stringify(body));
    const signature = `sha256=${createHmac('sha256', signedWith).update(rawBody).digest('hex')}`;
    return useCase.execute({ rawBody, signature, body });
  };
  return { changes, deliver };
}

const change = (event: string, templateId: string, reason = 'NONE') => ({ field: 'message_template_status_update', value: { event, message_template_id: templateId, reason } });

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

  it('refuses a delivery not signed with the app secret (401 1003), and any delivery without a secret', async () => {
    for (const { secret, signedWith } of [
      { secret: SECRET, signedWith: 'another-secret' },
      { secret: undefined, signedWith: SECRET },
    ]) {
      const { changes, deliver } = setUp({ appSecret: secret });
      await expect(deliver({ entry: [{ id: 'waba-1', changes: [change('APPROVED', 'tpl-1')] }] }, signedWith)).rejects.toMatchObject({ status: 401, code: 1003 });
      expect(changes).toEqual([]);
    }
  });
});
