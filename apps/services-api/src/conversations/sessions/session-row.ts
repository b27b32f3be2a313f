import type { SessionDto } from '../contacts/sessions/contact-session.dto';

/** A session row with its last message and summary, as operation 11 and the conversation routes read it (SESSION_ROW_COLUMNS). */
export interface SessionRow {
  id: string;
  tenantID: string;
  contactID: string;
  inboxID: string;
  operatorID: string | null;
  operatorParticipantsIDs: string[];
  channel: string;
  type: string;
  active: boolean;
  listed: boolean;
  lastMessageID: string | null;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
  manualAt: Date | null;
  queuedAt: Date | null;
  messageDirection: string | null;
  messageKey: string | null;
  messageStatus: number | null;
  messageValue: unknown;
  summary: Record<string, unknown> | null;
}

/** The columns of a SessionRow, from a session `s`, its last message `m` (left joined) and its summary `ss` (left joined). */
export const SESSION_ROW_COLUMNS = `s.id, s.tenant_id AS "tenantID", s.contact_id AS "contactID", s.inbox_id AS "inboxID", s.operator_id AS "operatorID",
              s.operator_participants_ids AS "operatorParticipantsIDs", s.channel, s.type, s.active, s.listed,
              s.last_message_id AS "lastMessageID", s.created_at AS "createdAt", s.updated_at AS "updatedAt", s.closed_at AS "closedAt",
              s.manual_at AS "manualAt", s.queued_at AS "queuedAt",
              m.direction AS "messageDirection", m.key AS "messageKey", m.status AS "messageStatus", m.value AS "messageValue",
              ss.summary`;

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** The API's session from its row: one mapping for operation 11 and the conversation routes. */
export function toDto(row: SessionRow): SessionDto {
  const session: SessionDto = {
    sessionID: row.id,
    tenantID: row.tenantID,
    contactID: row.contactID,
    inboxID: row.inboxID,
    operatorID: row.operatorID,
    operatorParticipantsIDs: row.operatorParticipantsIDs,
    sessionChannel: row.channel,
    sessionType: row.type,
    sessionActive: row.active,
    sessionListed: row.listed,
    sessionLastMessageID: row.lastMessageID,
    lastMessage:
      row.lastMessageID === null
        ? null
        : {
            messageDirection: row.messageDirection as string,
            messageKey: row.messageKey as string,
            messageStatus: row.messageStatus as number,
            messageValue: row.messageValue,
          },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    closedAt: iso(row.closedAt),
    manualAt: iso(row.manualAt),
    queuedAt: iso(row.queuedAt),
  };
  if (row.summary !== null) session.sessionSummary = row.summary;
  return session;
}
