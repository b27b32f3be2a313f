import type { OperatorPrincipal, PluginConnectionPrincipal } from '@platform/auth';
import type { ConversationMessageDto } from '@platform/conversations';
import { fake, FakeTenantAccess } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { CONNECTION_ID, INBOX_ID, OPERATOR_ID, OTHER_OPERATOR_ID, SESSION_ID, sessionView, TENANT_ID } from '../../../test/doubles/conversations.fakes';
import type { SessionsRepository, SessionView } from '../sessions/sessions.repository';
import { GetMessageUseCase } from './get-message.use-case';
import type { MessagesRepository, StoredMessage } from './messages.repository';

const MESSAGE_ID = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
const operator: OperatorPrincipal = { kind: 'operator', operatorID: OPERATOR_ID };
const connection = (pluginConnectionID: string): PluginConnectionPrincipal => ({ kind: 'pluginConnection', pluginID: 'a-plugin', pluginConnectionID, tenantID: TENANT_ID });

const message: ConversationMessageDto = {
  messageID: MESSAGE_ID,
  sessionID: SESSION_ID,
  inboxID: INBOX_ID,
  messageDirection: 'inbound',
  messageKey: 'text',
  messageStatus: 0,
  deliveryStatus: null,
  messageValue: 'Olá',
  channelMessageID: 'wamid.1',
  operatorID: null,
  createdAt: '2026-11-28T12:00:01.000Z',
  updatedAt: '2026-11-28T12:00:01.000Z',
};

/** The message stored (or none), in a session as `session` shows it (or gone, as retention leaves a message for a moment). */
function setUp(stored: StoredMessage | undefined, session: SessionView | undefined) {
  const sessionsAsked: string[] = [];
  const useCase = new GetMessageUseCase(
    new FakeTenantAccess().asAccess(),
    fake<SessionsRepository>({
      view: async (_scope: unknown, sessionID: string) => {
        sessionsAsked.push(sessionID);
        return session;
      },
    }),
    fake<MessagesRepository>({ byID: async (_scope: unknown, messageID: string) => (messageID === MESSAGE_ID ? stored : undefined) }),
  );
  const get = (principal: OperatorPrincipal | PluginConnectionPrincipal, messageID = MESSAGE_ID) => useCase.execute({ principal, tenantID: TENANT_ID, messageID });
  return { get, sessionsAsked };
}

const stored: StoredMessage = { message, position: { createdAt: '2026-11-28T12:00:01.000000Z', messageID: MESSAGE_ID } };

describe('GetMessageUseCase', () => {
  it("answers the message to whoever may see its session: an operator by operation 11's rule, the inbox's plugin connection", async () => {
    const { get, sessionsAsked } = setUp(stored, sessionView());
    expect(await get(operator)).toEqual(message);
    expect(sessionsAsked).toEqual([SESSION_ID]);
    expect(await setUp(stored, sessionView({ sessionListed: false, operatorID: OPERATOR_ID, sessionState: 'assigned' })).get(operator)).toEqual(message);
    expect(await setUp(stored, sessionView({ sessionListed: false, operatorID: OTHER_OPERATOR_ID, sessionState: 'assigned' })).get(connection(CONNECTION_ID))).toEqual(message);
  });

  it('answers 404 1946, exactly as for a message the tenant does not have, when its session is one the caller may not see', async () => {
    const unlisted = sessionView({ sessionListed: false, operatorID: OTHER_OPERATOR_ID, sessionState: 'assigned' });
    await expect(setUp(stored, unlisted).get(operator)).rejects.toMatchObject({ key: 'MessageNotFound' });
    await expect(setUp(stored, sessionView()).get(connection('4f1e2d3c-0b9a-4876-9543-210fedcba987'))).rejects.toMatchObject({ key: 'MessageNotFound' });
  });

  it('answers 404 1946 for a message the tenant does not have, and for one whose session is gone, without telling them apart', async () => {
    const missing = setUp(undefined, sessionView());
    await expect(missing.get(operator)).rejects.toMatchObject({ key: 'MessageNotFound' });
    expect(missing.sessionsAsked).toEqual([]);
    await expect(setUp(stored, undefined).get(operator)).rejects.toMatchObject({ key: 'MessageNotFound' });
  });
});
