import type { OperatorPrincipal } from '@platform/auth';
import type { ConversationMessageDto } from '@platform/conversations';
import type { SqlRunner } from '@platform/database';
import { fake, FakeTenantAccess, RecordingWebhookEvents } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { INBOX_ID, OPERATOR_ID, OTHER_OPERATOR_ID, SESSION_ID, sessionView, TENANT_ID } from '../../../test/doubles/conversations.fakes';
import { ConversationEvents } from '../conversation-events';
import type { ConversationsSettings } from '../conversations-settings';
import type { SessionsRepository, SessionView } from '../sessions/sessions.repository';
import type { MessagesRepository, StoredMessage } from './messages.repository';
import { PostReplyUseCase } from './post-reply.use-case';

const MESSAGE_ID = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
const settings: ConversationsSettings = { messageContentMaxCharacters: 3, fanoutPollMs: 60_000, retentionDays: 0 };
const operator: OperatorPrincipal = { kind: 'operator', operatorID: OPERATOR_ID };

function setUp(before: SessionView, access = new FakeTenantAccess()) {
  const runner: SqlRunner = { query: async () => [] };
  const written: string[] = [];
  const webhookEvents = new RecordingWebhookEvents();
  const inTransaction = (used: SqlRunner | undefined) => (used === runner ? '' : ' outside the transaction');
  let current = before;
  const sessions = fake<SessionsRepository>({
    lockedView: async (used: SqlRunner) => {
      written.push(`lock session${inTransaction(used)}`);
      return current;
    },
    view: async () => current,
  });
  const messages = fake<MessagesRepository>({
    transaction: async <T>(work: (runner: SqlRunner) => Promise<T>): Promise<T> => {
      const result = await work(runner);
      written.push('commit');
      return result;
    },
    insertOutbound: async (used: SqlRunner, _scope: unknown, message: { sessionID: string; inboxID: string; content: string; operatorID: string }): Promise<StoredMessage> => {
      written.push(`insert outbound ${JSON.stringify(message)}${inTransaction(used)}`);
      current = sessionView({ ...current.session, sessionLastMessageID: MESSAGE_ID });
      const stored: ConversationMessageDto = {
        messageID: MESSAGE_ID,
        sessionID: message.sessionID,
        inboxID: message.inboxID,
        messageDirection: 'outbound',
        messageKey: 'text',
        messageStatus: 0,
        deliveryStatus: 'pending',
        messageValue: message.content,
        channelMessageID: null,
        operatorID: message.operatorID,
        createdAt: '2026-11-28T12:00:01.000Z',
        updatedAt: '2026-11-28T12:00:01.000Z',
      };
      return { message: stored, position: { createdAt: '2026-11-28T12:00:01.000000Z', messageID: MESSAGE_ID } };
    },
  });
  const useCase = new PostReplyUseCase(access.asAccess(), sessions, messages, new ConversationEvents(webhookEvents.asEvents()), settings);
  const post = (content: string) =>
    useCase.execute({ principal: operator, tenantID: TENANT_ID, sessionID: SESSION_ID, content, idempotency: { claimKey: async () => void written.push('claim idempotency key') } });
  const appended = () => webhookEvents.events.map((entry) => `${entry.event.type}${inTransaction(entry.runner as SqlRunner)}`);
  return { post, written, webhookEvents, appended };
}

describe('PostReplyUseCase', () => {
  it("stores the operator's reply outbound and pending on the session's inbox, with message.created carrying it and the session after it, under the session's lock", async () => {
    const { post, written, webhookEvents, appended } = setUp(sessionView({ operatorID: OPERATOR_ID, sessionState: 'assigned' }));
    expect(await post('Olá')).toMatchObject({ messageID: MESSAGE_ID, messageDirection: 'outbound', deliveryStatus: 'pending', messageValue: 'Olá', operatorID: OPERATOR_ID });
    expect(written).toEqual([
      'claim idempotency key',
      'lock session',
      `insert outbound ${JSON.stringify({ sessionID: SESSION_ID, inboxID: INBOX_ID, content: 'Olá', operatorID: OPERATOR_ID })}`,
      'commit',
    ]);
    expect(appended()).toEqual(['message.created']);
    expect(webhookEvents.events[0].event).toEqual({
      type: 'message.created',
      subject: `session:${SESSION_ID}`,
      data: expect.objectContaining({ message: expect.objectContaining({ messageID: MESSAGE_ID }), session: expect.objectContaining({ sessionLastMessageID: MESSAGE_ID }) }),
    });
  });

  it('lets any operator who may see the session reply, a queued one included', async () => {
    const { post, appended } = setUp(sessionView());
    await post('Oi');
    expect(appended()).toEqual(['message.created']);
  });

  it('counts the content in characters, not UTF-16 units: as many emoji as the limit are taken, one more is 422 1948 before the session is touched', async () => {
    const accepted = setUp(sessionView());
    await accepted.post('😀😀😀');
    expect(accepted.appended()).toEqual(['message.created']);
    const refused = setUp(sessionView());
    await expect(refused.post('😀😀😀😀')).rejects.toMatchObject({ key: 'MessageContentTooLong' });
    expect(refused.written).toEqual(['claim idempotency key']);
    expect(refused.appended()).toEqual([]);
  });

  it('refuses a closed session (409 1942) and one the operator may not see (404 1060), storing and appending nothing', async () => {
    for (const [before, key] of [
      [sessionView({ operatorID: OPERATOR_ID, sessionState: 'closed', closedAt: '2026-11-28T13:00:00.000Z' }), 'SessionClosed'],
      [sessionView({ sessionListed: false, operatorID: OTHER_OPERATOR_ID, sessionState: 'assigned' }), 'SessionNotFound'],
    ] as const) {
      const { post, written, appended } = setUp(before);
      await expect(post('Olá')).rejects.toMatchObject({ key });
      expect(written).toEqual(['claim idempotency key', 'lock session']);
      expect(appended()).toEqual([]);
    }
  });

  it('claims no idempotency key for a caller the tenant refuses', async () => {
    const access = new FakeTenantAccess();
    access.refusal = 'Forbidden';
    const { post, written } = setUp(sessionView(), access);
    await expect(post('Olá')).rejects.toMatchObject({ key: 'Forbidden' });
    expect(written).toEqual([]);
  });
});
