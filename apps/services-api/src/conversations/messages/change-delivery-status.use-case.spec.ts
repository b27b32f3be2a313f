import type { SqlRunner } from '@platform/database';
import { fake, FakeTenantAccess, RecordingWebhookEvents, transactionOn } from '@platform/testing';
import type { ConversationMessageDto, DeliveryStatus } from '@platform/conversations';
import { describe, expect, it } from 'vitest';
import { ConversationEvents } from '../conversation-events';
import { CONNECTION_ID, INBOX_ID, SESSION_ID, sessionView, TENANT_ID } from '../../../test/doubles/conversations.fakes';
import type { SessionsRepository } from '../sessions/sessions.repository';
import { ChangeDeliveryStatusUseCase } from './change-delivery-status.use-case';
import type { MessagesRepository, StoredMessage } from './messages.repository';

function storedWith(changes: Partial<ConversationMessageDto>): StoredMessage {
  const message: ConversationMessageDto = {
    messageID: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
    sessionID: SESSION_ID,
    inboxID: INBOX_ID,
    messageDirection: 'outbound',
    messageKey: 'text',
    messageStatus: 0,
    deliveryStatus: 'pending',
    messageValue: 'Olá',
    channelMessageID: null,
    operatorID: '9c8b7a6d-5e4f-4321-8abc-def012345678',
    createdAt: '2026-11-28T12:00:01.000Z',
    updatedAt: '2026-11-28T12:00:01.000Z',
    ...changes,
  };
  return { message, position: { createdAt: '2026-11-28T12:00:01.000000Z', messageID: message.messageID } };
}

function setUp(current: StoredMessage) {
  const runner: SqlRunner = { query: async () => [] };
  const webhookEvents = new RecordingWebhookEvents();
  const set: DeliveryStatus[] = [];
  const useCase = new ChangeDeliveryStatusUseCase(
    new FakeTenantAccess().asAccess(),
    fake<SessionsRepository>({ lockedView: async () => sessionView(), view: async () => sessionView() }),
    fake<MessagesRepository>({
      transaction: transactionOn(runner),
      byID: async () => current,
      setDeliveryStatus: async (_runner: SqlRunner, _scope: unknown, _id: string, status: DeliveryStatus) => {
        set.push(status);
        return storedWith({ deliveryStatus: status });
      },
    }),
    new ConversationEvents(webhookEvents.asEvents()),
  );
  const report = (deliveryStatus: DeliveryStatus, pluginConnectionID = CONNECTION_ID) =>
    useCase.execute({ principal: { kind: 'pluginConnection', pluginConnectionID, pluginID: 'plugin-1', tenantID: TENANT_ID }, tenantID: TENANT_ID, messageID: current.message.messageID, deliveryStatus });
  return { report, set, webhookEvents, runner };
}

describe('ChangeDeliveryStatusUseCase', () => {
  it('moves a reply forward with message.statusChanged in the same transaction', async () => {
    const { report, set, webhookEvents, runner } = setUp(storedWith({}));
    expect(await report('delivered')).toMatchObject({ deliveryStatus: 'delivered' });
    expect(set).toEqual(['delivered']);
    expect(webhookEvents.events).toEqual([
      { runner, tenantID: TENANT_ID, event: { type: 'message.statusChanged', subject: `session:${SESSION_ID}`, data: expect.objectContaining({ previousStatus: 'pending', pluginConnectionID: CONNECTION_ID }) } },
    ]);
  });

  it('answers a repeated status as it is, writing and emitting nothing', async () => {
    const { report, set, webhookEvents } = setUp(storedWith({ deliveryStatus: 'sent' }));
    expect(await report('sent')).toMatchObject({ deliveryStatus: 'sent' });
    expect(set).toEqual([]);
    expect(webhookEvents.events).toEqual([]);
  });

  it('refuses a backward move (409 1947), an inbound message and another connection (404 1946)', async () => {
    await expect(setUp(storedWith({ deliveryStatus: 'read' })).report('delivered')).rejects.toMatchObject({ key: 'MessageStatusRefused' });
    await expect(setUp(storedWith({ messageDirection: 'inbound', deliveryStatus: null })).report('sent')).rejects.toMatchObject({ key: 'MessageNotFound' });
    await expect(setUp(storedWith({})).report('sent', 'another-connection')).rejects.toMatchObject({ key: 'MessageNotFound' });
  });
});
