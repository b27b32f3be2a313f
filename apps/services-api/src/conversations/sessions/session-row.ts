import type { SessionDto } from '../contacts/sessions/contact-session.dto';

/** A session row with its last message and summary, as operation 11 and the conversation routes read it. */
export interface SessionRow {
  id: string;
  tenant_id: string;
  contact_id: string;
  inbox_id: string;
  operator_id: string | null;
  operator_participants_ids: string[];
  channel: string;
  type: string;
  active: boolean;
  listed: boolean;
  last_message_id: string | null;
  created_at: Date;
  updated_at: Date;
  closed_at: Date | null;
  manual_at: Date | null;
  queued_at: Date | null;
  message_direction: string | null;
  message_key: string | null;
  message_status: number | null;
  message_value: unknown;
  summary: Record<string, unknown> | null;
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** The API's session from its row: one mapping for operation 11 and the conversation routes. */
export function toDto(row: SessionRow): SessionDto {
  const session: SessionDto = {
    sessionID: row.id,
    tenantID: row.tenant_id,
    contactID: row.contact_id,
    inboxID: row.inbox_id,
    operatorID: row.operator_id,
    operatorParticipantsIDs: row.operator_participants_ids,
    sessionChannel: row.channel,
    sessionType: row.type,
    sessionActive: row.active,
    sessionListed: row.listed,
    sessionLastMessageID: row.last_message_id,
    lastMessage:
      row.last_message_id === null
        ? null
        : {
            messageDirection: row.message_direction as string,
            messageKey: row.message_key as string,
            messageStatus: row.message_status as number,
            messageValue: row.message_value,
          },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    closedAt: iso(row.closed_at),
    manualAt: iso(row.manual_at),
    queuedAt: iso(row.queued_at),
  };
  if (row.summary !== null) session.sessionSummary = row.summary;
  return session;
}
