import type { ConversationSessionDto } from '@platform/conversations';
import type { SessionView } from '../../src/conversations/sessions/sessions.repository';

export const TENANT_ID = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';
export const INBOX_ID = '0c3b2a19-8f7e-4d6c-9b5a-4f3e2d1c0b0a';
export const SESSION_ID = '7a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d';
export const CONNECTION_ID = '2e4f6a8b-0c1d-4e3f-9a5b-7c9d1e3f5a7b';
export const OPERATOR_ID = '9c8b7a6d-5e4f-4321-8abc-def012345678';
export const OTHER_OPERATOR_ID = '1b2c3d4e-5f60-4718-8a9b-0c1d2e3f4a5b';

/** A session as the repository shows it, queued unless told otherwise. */
export function sessionView(changes: Partial<ConversationSessionDto> = {}): SessionView {
  const session: ConversationSessionDto = {
    sessionID: SESSION_ID,
    tenantID: TENANT_ID,
    contactID: '3c5e7a9b-1d2f-4a6c-8e0b-2d4f6a8c0e1f',
    inboxID: INBOX_ID,
    operatorID: null,
    operatorParticipantsIDs: [],
    sessionChannel: 'whatsapp',
    sessionType: 'chat',
    sessionActive: true,
    sessionListed: true,
    sessionLastMessageID: null,
    lastMessage: null,
    createdAt: '2026-11-28T12:00:00.000Z',
    updatedAt: '2026-11-28T12:00:00.000Z',
    closedAt: null,
    manualAt: null,
    queuedAt: '2026-11-28T12:00:00.000Z',
    sessionState: 'queued',
    ...changes,
  };
  return { session, pluginConnectionID: CONNECTION_ID };
}
