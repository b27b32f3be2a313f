import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { ConversationSessionDto, sessionStateOf } from '@platform/conversations';
import { firstRow, run, sql, SqlRunner, TransactionalRepository } from '@platform/database';
import { SESSION_ROW_COLUMNS, SessionRow, toDto } from './session-row';

/** A session as the conversation routes show it, with the inbox's channel plugin connection. */
export interface SessionView {
  session: ConversationSessionDto;
  pluginConnectionID: string | null;
}

type ViewRow = SessionRow & { plugin_connection_id: string | null };

/** The columns operation 11 reads (session-row.ts), and the inbox's connection. */
const VIEW = `SELECT ${SESSION_ROW_COLUMNS}, i.plugin_connection_id
                FROM sessions s
                JOIN inboxes i ON i.id = s.inbox_id
                LEFT JOIN messages m ON m.id = s.last_message_id
                LEFT JOIN session_summaries ss ON ss.session_id = s.id`;

const BY_ID = sql<ViewRow, [tenantID: string, sessionID: string]>(`${VIEW} WHERE s.tenant_id = $1 AND s.id = $2`);

/**
 * Locks the session until the transaction ends: every change of a session,
 * and every event of its subject, happens under this lock, so the events of
 * one session are appended in the order their changes commit.
 */
const LOCK = sql<{ id: string }, [tenantID: string, sessionID: string]>(`SELECT id FROM sessions WHERE tenant_id = $1 AND id = $2 FOR UPDATE`);

/** Assigns (take, assign): the assignee is no longer a mere participant. */
const ASSIGN = sql<never, [tenantID: string, sessionID: string, operatorID: string]>(
  `UPDATE sessions SET operator_id = $3, operator_participants_ids = array_remove(operator_participants_ids, $3), updated_at = clock_timestamp()
    WHERE tenant_id = $1 AND id = $2`,
);

/** Transfers: the previous assignee stays a participant (SET reads the old row), the new one is no longer one. */
const TRANSFER = sql<never, [tenantID: string, sessionID: string, operatorID: string]>(
  `UPDATE sessions
      SET operator_participants_ids = array_remove(
            CASE WHEN operator_id = ANY (operator_participants_ids) THEN operator_participants_ids
                 ELSE array_append(operator_participants_ids, operator_id) END, $3),
          operator_id = $3, updated_at = clock_timestamp()
    WHERE tenant_id = $1 AND id = $2`,
);

const JOIN_SESSION = sql<never, [tenantID: string, sessionID: string, operatorID: string]>(
  `UPDATE sessions SET operator_participants_ids = array_append(operator_participants_ids, $3), updated_at = clock_timestamp()
    WHERE tenant_id = $1 AND id = $2`,
);

const CLOSE = sql<never, [tenantID: string, sessionID: string]>(
  `UPDATE sessions SET closed_at = clock_timestamp(), active = false, updated_at = clock_timestamp() WHERE tenant_id = $1 AND id = $2`,
);

/**
 * Serialises the inbound posts of one contact handle on a tenant's channel
 * until their transaction ends, so finding or creating the contact and its
 * open session cannot race. An advisory lock: the contact may not exist yet.
 */
const LOCK_CONTACT_HANDLE = sql<never, [tenantID: string, channel: string, handle: string]>(
  `SELECT pg_advisory_xact_lock(hashtextextended('conversation-contact:' || $1::text || ':' || $2::text || ':' || $3::text, 0))`,
);

const CONTACT_BY_HANDLE = sql<{ contact_id: string }, [tenantID: string, channel: string, handle: string]>(
  `SELECT contact_id FROM contact_handles WHERE tenant_id = $1 AND channel = $2 AND handle = $3`,
);

const INSERT_CONTACT = sql<{ id: string }, [tenantID: string, name: string, channel: string, handle: string]>(
  `WITH contact AS (INSERT INTO contacts (tenant_id, name) VALUES ($1, $2) RETURNING id)
   INSERT INTO contact_handles (tenant_id, channel, handle, contact_id) SELECT $1, $3, $4, id FROM contact RETURNING contact_id AS id`,
);

/** The contact's open session on the inbox, locked (sessions_open_contact_inbox_idx). */
const OPEN_SESSION = sql<{ id: string }, [tenantID: string, inboxID: string, contactID: string]>(
  `SELECT id FROM sessions WHERE tenant_id = $1 AND inbox_id = $2 AND contact_id = $3 AND closed_at IS NULL
    ORDER BY created_at DESC, id DESC LIMIT 1 FOR UPDATE`,
);

/** A new session starts queued: no assignee, listed, queued now. */
const INSERT_SESSION = sql<{ id: string }, [tenantID: string, contactID: string, inboxID: string, channel: string]>(
  `INSERT INTO sessions (tenant_id, contact_id, inbox_id, channel, type, queued_at, last_activity_at, created_at, updated_at)
   VALUES ($1, $2, $3, $4, 'chat', clock_timestamp(), clock_timestamp(), clock_timestamp(), clock_timestamp()) RETURNING id`,
);

/** At most `$2` sessions closed before `$1`, oldest first; their messages, summaries and notifications go with them (foreign keys). */
const DELETE_CLOSED_BEFORE = sql<never, [cutoff: Date, batch: number]>(
  `DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE closed_at < $1 ORDER BY closed_at LIMIT $2)`,
);

/** Sessions: reads, the transitions of their life, and the contact and session an inbound message lands in. */
@Injectable()
export class SessionsRepository extends TransactionalRepository {
  async view(scope: TenantScope, sessionID: string, runner: SqlRunner = this.dataSource): Promise<SessionView | undefined> {
    const row = await firstRow(runner, BY_ID, [scope.tenantID, sessionID]);
    if (!row) return undefined;
    const session = toDto(row);
    return { session: { ...session, sessionState: sessionStateOf(session) }, pluginConnectionID: row.plugin_connection_id };
  }

  /** Locks the session and answers it; undefined when the tenant has no such session. */
  async lockedView(runner: SqlRunner, scope: TenantScope, sessionID: string): Promise<SessionView | undefined> {
    const locked = await firstRow(runner, LOCK, [scope.tenantID, sessionID]);
    return locked ? this.view(scope, sessionID, runner) : undefined;
  }

  async assign(runner: SqlRunner, scope: TenantScope, sessionID: string, operatorID: string): Promise<void> {
    await run(runner, ASSIGN, [scope.tenantID, sessionID, operatorID]);
  }

  async transfer(runner: SqlRunner, scope: TenantScope, sessionID: string, operatorID: string): Promise<void> {
    await run(runner, TRANSFER, [scope.tenantID, sessionID, operatorID]);
  }

  async join(runner: SqlRunner, scope: TenantScope, sessionID: string, operatorID: string): Promise<void> {
    await run(runner, JOIN_SESSION, [scope.tenantID, sessionID, operatorID]);
  }

  async close(runner: SqlRunner, scope: TenantScope, sessionID: string): Promise<void> {
    await run(runner, CLOSE, [scope.tenantID, sessionID]);
  }

  /** Deletes up to `batch` sessions closed before `cutoff` (every tenant's: a retention sweep); returns how many. */
  async deleteClosedBefore(cutoff: Date, batch: number): Promise<number> {
    return (await run(this.dataSource, DELETE_CLOSED_BEFORE, [cutoff, batch])).count;
  }

  /**
   * The contact of a handle on a channel, created (named `name`) when the
   * tenant has none yet. Holds the handle's lock until the transaction ends.
   */
  async contactOfHandle(runner: SqlRunner, scope: TenantScope, contact: { channel: string; handle: string; name: string }): Promise<string> {
    await run(runner, LOCK_CONTACT_HANDLE, [scope.tenantID, contact.channel, contact.handle]);
    const found = await firstRow(runner, CONTACT_BY_HANDLE, [scope.tenantID, contact.channel, contact.handle]);
    if (found) return found.contact_id;
    const created = await firstRow(runner, INSERT_CONTACT, [scope.tenantID, contact.name, contact.channel, contact.handle]);
    return created!.id;
  }

  /** The contact's open session on the inbox (locked), or a new queued one; `opened` says which. */
  async openSessionOf(runner: SqlRunner, scope: TenantScope, inbox: { inboxID: string; channel: string }, contactID: string): Promise<{ sessionID: string; opened: boolean }> {
    const open = await firstRow(runner, OPEN_SESSION, [scope.tenantID, inbox.inboxID, contactID]);
    if (open) return { sessionID: open.id, opened: false };
    const created = await firstRow(runner, INSERT_SESSION, [scope.tenantID, contactID, inbox.inboxID, inbox.channel]);
    return { sessionID: created!.id, opened: true };
  }
}
