import type { OperatorPrincipal, PluginConnectionPrincipal } from '@platform/auth';
import type { ConversationMessageDto } from '@platform/conversations';
import { KeysetCursors } from '@platform/http-common';
import { fake, FakeTenantAccess } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { CONNECTION_ID, INBOX_ID, OPERATOR_ID, OTHER_OPERATOR_ID, SESSION_ID, sessionView, TENANT_ID } from '../../../test/doubles/conversations.fakes';
import type { SessionsRepository, SessionView } from '../sessions/sessions.repository';
import { ListSessionMessagesUseCase } from './list-session-messages.use-case';
import { MESSAGE_PAGES, MessagePosition } from './message-cursor';
import type { MessagesRepository, StoredMessage } from './messages.repository';

const operator: OperatorPrincipal = { kind: 'operator', operatorID: OPERATOR_ID };
const connection = (pluginConnectionID: string): PluginConnectionPrincipal => ({ kind: 'pluginConnection', pluginID: 'a-plugin', pluginConnectionID, tenantID: TENANT_ID });
const cursors = new KeysetCursors({ current: 'the cursor key of the session messages spec' });

/** The session's messages, newest first: `count` of them, a second apart. */
function storedMessages(count: number): StoredMessage[] {
  return Array.from({ length: count }, (_, index) => {
    const second = String(59 - index).padStart(2, '0');
    const messageID = `a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c${String(index).padStart(2, '0')}`;
    const message: ConversationMessageDto = {
      messageID,
      sessionID: SESSION_ID,
      inboxID: INBOX_ID,
      messageDirection: 'inbound',
      messageKey: 'text',
      messageStatus: 0,
      deliveryStatus: null,
      messageValue: `message ${index}`,
      channelMessageID: null,
      operatorID: null,
      createdAt: `2026-11-28T12:00:${second}.000Z`,
      updatedAt: `2026-11-28T12:00:${second}.000Z`,
    };
    return { message, position: { createdAt: `2026-11-28T12:00:${second}.000123Z`, messageID } };
  });
}

/** A session of `messages`, newest first, that the repository pages as PostgreSQL would: strictly before the position, up to the limit. */
function setUp(session: SessionView | undefined, messages: StoredMessage[], access = new FakeTenantAccess()) {
  const asked: { before: MessagePosition | undefined; limit: number }[] = [];
  const useCase = new ListSessionMessagesUseCase(
    access.asAccess(),
    fake<SessionsRepository>({ view: async () => session }),
    fake<MessagesRepository>({
      page: async (_scope: unknown, sessionID: string, before: MessagePosition | undefined, limit: number) => {
        expect(sessionID).toBe(SESSION_ID);
        asked.push({ before, limit });
        const from = before === undefined ? 0 : messages.findIndex((stored) => stored.position.messageID === before.messageID) + 1;
        return messages.slice(from, from + limit);
      },
    }),
    cursors,
  );
  const list = (principal: OperatorPrincipal | PluginConnectionPrincipal, limit: number, cursor?: string) => useCase.execute({ principal, tenantID: TENANT_ID, sessionID: SESSION_ID, limit, cursor });
  return { list, asked };
}

describe('ListSessionMessagesUseCase', () => {
  it('pages the messages newest first, a cursor naming the last of a full page, none on the last page', async () => {
    const messages = storedMessages(5);
    const { list, asked } = setUp(sessionView(), messages);
    const first = await list(operator, 2);
    expect(first.data.map((message) => message.messageValue)).toEqual(['message 0', 'message 1']);
    expect(first.meta).toEqual({ limit: 2, nextCursor: expect.any(String) });
    const second = await list(operator, 2, first.meta.nextCursor ?? undefined);
    expect(second.data.map((message) => message.messageValue)).toEqual(['message 2', 'message 3']);
    const last = await list(operator, 2, second.meta.nextCursor ?? undefined);
    expect(last).toEqual({ data: [messages[4].message], meta: { limit: 2, nextCursor: null } });
    // One more than the page is read, to know whether another follows; each page starts after the one before.
    expect(asked).toEqual([
      { before: undefined, limit: 3 },
      { before: messages[1].position, limit: 3 },
      { before: messages[3].position, limit: 3 },
    ]);
  });

  it('gives no cursor when the page holds exactly the last messages', async () => {
    const { list } = setUp(sessionView(), storedMessages(2));
    expect((await list(operator, 2)).meta.nextCursor).toBeNull();
  });

  it("shows the inbox's plugin connection the messages of its session, unlisted included", async () => {
    const { list } = setUp(sessionView({ sessionListed: false, operatorID: OTHER_OPERATOR_ID, sessionState: 'assigned' }), storedMessages(1));
    expect((await list(connection(CONNECTION_ID), 10)).data).toHaveLength(1);
  });

  it('answers 404 1060 for a session the caller may not see, reading none of its messages', async () => {
    for (const [session, principal] of [
      [sessionView({ sessionListed: false, operatorID: OTHER_OPERATOR_ID, sessionState: 'assigned' }), operator],
      [sessionView(), connection('4f1e2d3c-0b9a-4876-9543-210fedcba987')],
      [undefined, operator],
    ] as const) {
      const { list, asked } = setUp(session, storedMessages(1));
      await expect(list(principal, 10)).rejects.toMatchObject({ key: 'SessionNotFound' });
      expect(asked).toEqual([]);
    }
  });

  it('refuses a cursor this API did not make for this list with 400 1002 on `cursor`, before asking the tenant access', async () => {
    const access = new FakeTenantAccess();
    const { list, asked } = setUp(sessionView(), storedMessages(1), access);
    const otherList = cursors.issue({ name: 'another-list', format: (text: string) => text, parse: (text: string) => text }, '2026-11-28T12:00:01.000123Z_a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c00');
    const [position, mac] = cursors.issue(MESSAGE_PAGES, storedMessages(1)[0].position).split('.');
    const forged = `${position}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
    for (const cursor of ['not-a-cursor', otherList, forged]) {
      await expect(list(operator, 10, cursor)).rejects.toMatchObject({ key: 'RequestValidation', fields: [expect.objectContaining({ field: 'cursor' })] });
    }
    expect(access.checks).toEqual([]);
    expect(asked).toEqual([]);
  });
});
