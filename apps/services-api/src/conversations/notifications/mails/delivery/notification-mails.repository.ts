import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { firstRow, rows, run, sql, SqlRunner, TransactionalRepository } from '@platform/database';

/** What happened that an operator may be mailed about (docs/notifications.md). */
export type NotificationMailKind = 'assigned' | 'contactWrote';

/** A batch the worker claimed: the operator's waiting items, leased to this replica. */
export interface ClaimedMailBatch {
  tenantID: string;
  operatorID: string;
  failures: number;
}

/** Whom a batch's mail goes to, as of the send: absent once they left the tenant. */
export interface MailRecipient {
  email: string;
  firstname: string;
  tenantName: string;
}

/** One waiting item as of the send, with what the mail may say of it. */
export interface WaitingMailItem {
  id: string;
  kind: NotificationMailKind;
  sessionID: string;
  contactName: string;
  /** The start of an inbound message's text (contactWrote), never the whole of a long one. */
  excerpt: string | null;
  /** False when the operator read the session since, or no longer wants this kind: dropped unsent. */
  deliverable: boolean;
}

/** Characters of a message read for its excerpt; the mail shortens it further. */
const EXCERPT_READ_LENGTH = 200;

/**
 * Records the event for the operator when, as this transaction sees it, they
 * are offline or away (no presence row is offline) and want this kind (no
 * preference row: every kind on); opens their batch unless one is open
 * already. The batch upsert takes the row's lock
 * (DO UPDATE, not DO NOTHING): a worker finishing that batch either sees
 * this item once it commits, or deletes the row first and this upsert
 * inserts a fresh one, so no item is ever left without a batch.
 */
const RECORD = sql<never, [tenantID: string, operatorID: string, kind: NotificationMailKind, sessionID: string, messageID: string | null]>(
  `WITH item AS (
     INSERT INTO notification_mail_items (tenant_id, operator_id, kind, session_id, message_id)
     SELECT $1, $2, $3, $4, $5
      WHERE NOT EXISTS (SELECT 1 FROM operator_presence p WHERE p.tenant_id = $1 AND p.operator_id = $2 AND p.status IN ('online', 'busy'))
        AND COALESCE((SELECT CASE WHEN $3 = 'assigned' THEN pr.assigned ELSE pr.contact_wrote END
                        FROM notification_mail_preferences pr WHERE pr.tenant_id = $1 AND pr.operator_id = $2), true)
     RETURNING tenant_id, operator_id
   )
   INSERT INTO notification_mail_batches AS b (tenant_id, operator_id)
   SELECT tenant_id, operator_id FROM item
   ON CONFLICT (tenant_id, operator_id) DO UPDATE SET opened_at = b.opened_at`,
);

/**
 * The oldest due batch nobody holds (due: its retry time after a failure,
 * else an interval after it opened), leased until `leasedUntil`: a replica
 * that dies mid-send leaves it to be claimed again then. `now` is the app's
 * Clock (tests move it); a batch opens at the database's time, the same
 * time outside tests.
 */
const CLAIM = sql<ClaimedMailBatch, [now: Date, leasedUntil: Date, intervalSeconds: number]>(
  `UPDATE notification_mail_batches b SET leased_until = $2
    WHERE (b.tenant_id, b.operator_id) = (
      SELECT tenant_id, operator_id FROM notification_mail_batches
       WHERE COALESCE(retry_at, opened_at + make_interval(secs => $3)) <= $1
         AND (leased_until IS NULL OR leased_until <= $1)
       ORDER BY opened_at LIMIT 1 FOR UPDATE SKIP LOCKED)
   RETURNING b.tenant_id AS "tenantID", b.operator_id AS "operatorID", b.failures`,
);

/** The operator's address and the tenant's name, while they are a member (core-tenants' tables, a listed read path). */
const RECIPIENT = sql<MailRecipient, [tenantID: string, operatorID: string]>(
  `SELECT o.email, o.firstname, t.name AS "tenantName"
     FROM memberships ms
     JOIN operators o ON o.id = ms.operator_id
     JOIN tenants t ON t.id = ms.tenant_id
    WHERE ms.tenant_id = $1 AND ms.operator_id = $2`,
);

/**
 * The operator's items, oldest first. An item is deliverable while the
 * operator still has an unread notification of its session that existed when
 * the item was written (reading the session marks all of them read; a
 * transfer away or a close clears them), and while they want its kind.
 */
const WAITING = sql<WaitingMailItem, [tenantID: string, operatorID: string, limit: number]>(
  `SELECT i.id, i.kind, i.session_id AS "sessionID", c.name AS "contactName",
          left(m.value #>> '{}', ${EXCERPT_READ_LENGTH}) AS excerpt,
          (EXISTS (SELECT 1 FROM notifications n
                    WHERE n.session_id = i.session_id AND n.operator_id = i.operator_id
                      AND n.read_at IS NULL AND n.created_at <= i.created_at)
           AND COALESCE((SELECT CASE WHEN i.kind = 'assigned' THEN pr.assigned ELSE pr.contact_wrote END
                           FROM notification_mail_preferences pr WHERE pr.tenant_id = i.tenant_id AND pr.operator_id = i.operator_id), true)
          ) AS deliverable
     FROM notification_mail_items i
     JOIN sessions s ON s.id = i.session_id
     JOIN contacts c ON c.id = s.contact_id
     LEFT JOIN messages m ON m.id = i.message_id
    WHERE i.tenant_id = $1 AND i.operator_id = $2
    ORDER BY i.created_at, i.id
    LIMIT $3`,
);

const LOCK_BATCH = sql<{ failures: number }, [tenantID: string, operatorID: string]>(
  `SELECT failures FROM notification_mail_batches WHERE tenant_id = $1 AND operator_id = $2 FOR UPDATE`,
);

const DELETE_ITEMS = sql<never, [tenantID: string, operatorID: string, itemIDs: string[]]>(
  `DELETE FROM notification_mail_items WHERE tenant_id = $1 AND operator_id = $2 AND id = ANY ($3::uuid[])`,
);

const DELETE_ALL_ITEMS = sql<never, [tenantID: string, operatorID: string]>(
  `DELETE FROM notification_mail_items WHERE tenant_id = $1 AND operator_id = $2`,
);

const HAS_ITEMS = sql<{ one: number }, [tenantID: string, operatorID: string]>(
  `SELECT 1 AS one FROM notification_mail_items WHERE tenant_id = $1 AND operator_id = $2 LIMIT 1`,
);

const DELETE_BATCH = sql<never, [tenantID: string, operatorID: string]>(
  `DELETE FROM notification_mail_batches WHERE tenant_id = $1 AND operator_id = $2`,
);

/** Items came while the mail went out: they wait one interval from the send. */
const REOPEN = sql<never, [tenantID: string, operatorID: string, openedAt: Date]>(
  `UPDATE notification_mail_batches SET opened_at = $3, retry_at = NULL, leased_until = NULL, failures = 0 WHERE tenant_id = $1 AND operator_id = $2`,
);

const RETRY_LATER = sql<never, [tenantID: string, operatorID: string, retryAt: Date]>(
  `UPDATE notification_mail_batches SET retry_at = $3, leased_until = NULL, failures = failures + 1 WHERE tenant_id = $1 AND operator_id = $2`,
);

/**
 * The queue of notification mails: items written with the events, batches
 * the worker claims, and what a batch's mail is made of as of the send.
 */
@Injectable()
export class NotificationMailsRepository extends TransactionalRepository {
  /** In the event's transaction: nothing is written unless the operator is offline or away and wants this kind. */
  async record(runner: SqlRunner, scope: TenantScope, event: { operatorID: string; kind: NotificationMailKind; sessionID: string; messageID?: string }): Promise<void> {
    await run(runner, RECORD, [scope.tenantID, event.operatorID, event.kind, event.sessionID, event.messageID ?? null]);
  }

  async claim(now: Date, leasedUntil: Date, intervalSeconds: number): Promise<ClaimedMailBatch | undefined> {
    return firstRow(this.dataSource, CLAIM, [now, leasedUntil, intervalSeconds]);
  }

  async recipient(batch: ClaimedMailBatch): Promise<MailRecipient | undefined> {
    return firstRow(this.dataSource, RECIPIENT, [batch.tenantID, batch.operatorID]);
  }

  async waiting(batch: ClaimedMailBatch, limit: number): Promise<WaitingMailItem[]> {
    return rows(this.dataSource, WAITING, [batch.tenantID, batch.operatorID, limit]);
  }

  /**
   * The batch's mail went out (or had nothing to say): its items are
   * deleted; the batch closes, or, when items came meanwhile, opens again at
   * `sentAt` (at most one mail per interval).
   */
  async finish(batch: ClaimedMailBatch, itemIDs: string[], sentAt: Date): Promise<void> {
    await this.transaction(async (runner) => {
      await firstRow(runner, LOCK_BATCH, [batch.tenantID, batch.operatorID]);
      await run(runner, DELETE_ITEMS, [batch.tenantID, batch.operatorID, itemIDs]);
      if (await firstRow(runner, HAS_ITEMS, [batch.tenantID, batch.operatorID])) await run(runner, REOPEN, [batch.tenantID, batch.operatorID, sentAt]);
      else await run(runner, DELETE_BATCH, [batch.tenantID, batch.operatorID]);
    });
  }

  /** The operator left the tenant: nothing of theirs is mailed. */
  async discard(batch: ClaimedMailBatch): Promise<void> {
    await this.transaction(async (runner) => {
      await firstRow(runner, LOCK_BATCH, [batch.tenantID, batch.operatorID]);
      await run(runner, DELETE_ALL_ITEMS, [batch.tenantID, batch.operatorID]);
      await run(runner, DELETE_BATCH, [batch.tenantID, batch.operatorID]);
    });
  }

  /** The mail could not be sent: every item stays, and the batch is due again at `retryAt`. */
  async failed(batch: ClaimedMailBatch, retryAt: Date): Promise<void> {
    await run(this.dataSource, RETRY_LATER, [batch.tenantID, batch.operatorID, retryAt]);
  }
}
