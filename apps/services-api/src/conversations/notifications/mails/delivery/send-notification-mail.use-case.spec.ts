import { fake, FakeClock } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import type { MailProvider, RenderedMail } from '../../../../mail/mail.provider';
import type { ClaimedMailBatch, MailRecipient, NotificationMailsRepository, WaitingMailItem } from './notification-mails.repository';
import { SendNotificationMailUseCase } from './send-notification-mail.use-case';

const BATCH: ClaimedMailBatch = { tenantID: 'tenant-1', operatorID: 'operator-1', failures: 0 };
const RECIPIENT: MailRecipient = { email: 'bia@acme-support.com.br', firstname: 'Bia', tenantName: 'Acme' };
const item = (id: string, deliverable: boolean): WaitingMailItem => ({ id, kind: 'assigned', sessionID: `session-${id}`, contactName: `Maria ${id}`, excerpt: null, deliverable });

function setUp(options: { batch?: ClaimedMailBatch; recipient?: MailRecipient; items?: WaitingMailItem[]; smtpFails?: boolean } = {}) {
  const clock = new FakeClock();
  const calls: string[] = [];
  const sent: { to: string; mail: RenderedMail }[] = [];
  const mails = fake<NotificationMailsRepository>({
    claim: async (now: Date, leasedUntil: Date, intervalSeconds: number) => {
      calls.push(`claim at ${now.toISOString()} until ${leasedUntil.toISOString()} after ${intervalSeconds}s`);
      return 'batch' in options ? options.batch : BATCH;
    },
    recipient: async () => ('recipient' in options ? options.recipient : RECIPIENT),
    waiting: async () => options.items ?? [item('a', true)],
    finish: async (_batch: ClaimedMailBatch, itemIDs: string[], sentAt: Date) => void calls.push(`finish ${itemIDs.join(',')} at ${sentAt.toISOString()}`),
    failed: async (_batch: ClaimedMailBatch, retryAt: Date) => void calls.push(`failed, retry at ${retryAt.toISOString()}`),
    discard: async () => void calls.push('discard'),
  });
  const mailer = fake<MailProvider>({
    send: async (to: string, mail: RenderedMail) => {
      if (options.smtpFails) throw new Error('451 Try again later');
      sent.push({ to, mail });
    },
  });
  const useCase = new SendNotificationMailUseCase(mails, mailer, clock, { intervalSeconds: 300, pollMs: 5000, retryDelaySeconds: 30 });
  return { useCase, calls, sent };
}

describe('SendNotificationMailUseCase', () => {
  it('answers false when no batch is due, leasing for five minutes', async () => {
    const { useCase, calls } = setUp({ batch: undefined });
    expect(await useCase.execute()).toBe(false);
    expect(calls).toEqual(['claim at 2026-03-02T12:00:00.000Z until 2026-03-02T12:05:00.000Z after 300s']);
  });

  it('sends one mail listing the deliverable items to the recipient, then deletes every item it read', async () => {
    const { useCase, calls, sent } = setUp({ items: [item('a', true), item('b', false), item('c', true)] });
    expect(await useCase.execute()).toBe(true);
    expect(sent).toHaveLength(1);
    expect(sent[0].to).toBe(RECIPIENT.email);
    expect(sent[0].mail.subject).toBe('Acme: 2 novidades no atendimento');
    expect(sent[0].mail.text).toContain('Maria a');
    expect(sent[0].mail.text).toContain('Maria c');
    expect(sent[0].mail.text).not.toContain('Maria b');
    expect(calls.slice(1)).toEqual(['finish a,b,c at 2026-03-02T12:00:00.000Z']);
  });

  it('sends nothing when every item was read or is unwanted, and still deletes them', async () => {
    const { useCase, calls, sent } = setUp({ items: [item('a', false)] });
    await useCase.execute();
    expect(sent).toEqual([]);
    expect(calls.slice(1)).toEqual(['finish a at 2026-03-02T12:00:00.000Z']);
  });

  it('discards the batch of an operator who left the tenant, unsent', async () => {
    const { useCase, calls, sent } = setUp({ recipient: undefined });
    await useCase.execute();
    expect(sent).toEqual([]);
    expect(calls.slice(1)).toEqual(['discard']);
  });

  it.each([
    [0, '2026-03-02T12:00:30.000Z'],
    [3, '2026-03-02T12:04:00.000Z'],
    [30, '2026-03-02T13:00:00.000Z'],
  ])('keeps every item when SMTP fails after %i failures, due again after a doubling delay capped at an hour', async (failures, retryAt) => {
    const { useCase, calls } = setUp({ batch: { ...BATCH, failures }, smtpFails: true });
    expect(await useCase.execute()).toBe(true);
    expect(calls.slice(1)).toEqual([`failed, retry at ${retryAt}`]);
  });
});
