import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import type { NotificationFanoutKind } from '@platform/database';
import { firstRow, rows, run, sql, SqlRunner, TransactionalRepository } from '@platform/database';

export interface DueFanout {
  id: string;
  tenantID: string;
  sessionID: string;
  kind: NotificationFanoutKind;
}

const ENQUEUE = sql<never, [tenantID: string, sessionID: string, kind: NotificationFanoutKind]>(
  `INSERT INTO notification_fanouts (tenant_id, session_id, kind) VALUES ($1, $2, $3)`,
);

/**
 * One inbox notification of the session for the operator, unless they have
 * an unread one of it already (one per operator and session while unread:
 * docs/conversations.md#notifications).
 */
const NOTIFY_OPERATOR = sql<{ id: string }, [tenantID: string, operatorID: string, inboxID: string, sessionID: string]>(
  `INSERT INTO notifications (tenant_id, operator_id, category, inbox_id, session_id)
   SELECT $1, $2, 'inbox', $3, $4
    WHERE NOT EXISTS (SELECT 1 FROM notifications WHERE session_id = $4 AND operator_id = $2 AND read_at IS NULL)
   RETURNING id`,
);

/** An `assignment` notification: someone else assigned or transferred the session to the operator. */
const NOTIFY_ASSIGNMENT = sql<never, [tenantID: string, operatorID: string, sessionID: string]>(
  `INSERT INTO notifications (tenant_id, operator_id, category, session_id) VALUES ($1, $2, 'assignment', $3)`,
);

/** Marks the operator's unread notifications of the session read; returns how many. */
const MARK_READ = sql<never, [tenantID: string, sessionID: string, operatorID: string]>(
  `UPDATE notifications SET read_at = clock_timestamp()
    WHERE session_id = $2 AND operator_id = $3 AND read_at IS NULL AND tenant_id = $1`,
);

/** The oldest fan-out, locked until its transaction ends (another replica skips it). */
const CLAIM = sql<DueFanout, []>(
  `SELECT id, tenant_id AS "tenantID", session_id AS "sessionID", kind FROM notification_fanouts ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
);

/**
 * Serialises the fan-outs of a session with its changes (the session's own
 * lock), so two replicas never both find an operator without an unread
 * notification and both insert one.
 */
const LOCK_SESSION = sql<{ id: string }, [sessionID: string]>(`SELECT id FROM sessions WHERE id = $1 FOR UPDATE`);

/**
 * The recipients as of now, whatever they were when the message arrived: a
 * queued session notifies every operator of the tenant who may see it
 * (every member when it is listed, else its participants), an assigned one
 * its assignee, a closed one nobody. One statement: the tenant's memberships
 * (core-tenants' table, a listed read path) joined in the database, so
 * 2,000 operators cost one INSERT ... SELECT and one grouped counter upsert.
 * Those who have an unread notification of the session already are left
 * out by an uncorrelated NOT IN (a hashed subplan: one pass over the
 * session's unread notifications), never a per-operator probe a misjudged
 * row count can turn into a nested loop (operator_id is NOT NULL, so NOT IN
 * means what it says).
 */
const NOTIFY_RECIPIENTS = sql<{ operatorID: string }, [sessionID: string]>(
  `INSERT INTO notifications (tenant_id, operator_id, category, inbox_id, session_id)
   SELECT s.tenant_id, r.operator_id, 'inbox', s.inbox_id, s.id
     FROM sessions s
     CROSS JOIN LATERAL (
       SELECT ms.operator_id FROM memberships ms
        WHERE ms.tenant_id = s.tenant_id AND s.operator_id IS NULL
          AND (s.listed OR ms.operator_id = ANY (s.operator_participants_ids))
       UNION ALL
       SELECT s.operator_id WHERE s.operator_id IS NOT NULL
     ) r
    WHERE s.id = $1 AND s.closed_at IS NULL
      AND r.operator_id NOT IN (SELECT n.operator_id FROM notifications n WHERE n.session_id = $1 AND n.read_at IS NULL)
   RETURNING operator_id AS "operatorID"`,
);

/**
 * Clears the session's unread notifications of everyone but its current
 * assignee (nobody's kept once closed); answers whose, once each (an
 * operator may have had an inbox and an assignment notification of it).
 */
const CLEAR_OTHERS = sql<{ operatorID: string }, [sessionID: string]>(
  `UPDATE notifications n SET read_at = clock_timestamp()
     FROM sessions s
    WHERE s.id = $1 AND n.session_id = s.id AND n.read_at IS NULL
      AND (s.closed_at IS NOT NULL OR s.operator_id IS NULL OR n.operator_id <> s.operator_id)
   RETURNING n.operator_id AS "operatorID"`,
);

const DELETE = sql<never, [id: string]>(`DELETE FROM notification_fanouts WHERE id = $1`);

/** Inbox notifications of conversations: the direct ones, the durable fan-outs, and reads. */
@Injectable()
export class NotificationFanoutsRepository extends TransactionalRepository {
  async enqueue(runner: SqlRunner, scope: TenantScope, sessionID: string, kind: NotificationFanoutKind): Promise<void> {
    await run(runner, ENQUEUE, [scope.tenantID, sessionID, kind]);
  }

  /** Whether it wrote one: false when the operator had an unread notification of the session already (their counts did not move). */
  async notifyOperator(runner: SqlRunner, scope: TenantScope, notification: { operatorID: string; inboxID: string; sessionID: string }): Promise<boolean> {
    return (await run(runner, NOTIFY_OPERATOR, [scope.tenantID, notification.operatorID, notification.inboxID, notification.sessionID])).count > 0;
  }

  async notifyAssignment(runner: SqlRunner, scope: TenantScope, operatorID: string, sessionID: string): Promise<void> {
    await run(runner, NOTIFY_ASSIGNMENT, [scope.tenantID, operatorID, sessionID]);
  }

  async markRead(runner: SqlRunner, scope: TenantScope, sessionID: string, operatorID: string): Promise<number> {
    return (await run(runner, MARK_READ, [scope.tenantID, sessionID, operatorID])).count;
  }

  /** Claims the oldest fan-out in `runner`'s transaction; delete it in the same transaction once done. */
  async claim(runner: SqlRunner): Promise<DueFanout | undefined> {
    return firstRow(runner, CLAIM, []);
  }

  /**
   * Carries out a claimed fan-out under its session's lock; answers the
   * operators whose notifications it wrote or cleared (their counts moved),
   * each once.
   */
  async carryOut(runner: SqlRunner, fanout: DueFanout): Promise<string[]> {
    await firstRow(runner, LOCK_SESSION, [fanout.sessionID]);
    const statement = fanout.kind === 'notify' ? NOTIFY_RECIPIENTS : CLEAR_OTHERS;
    return [...new Set((await rows(runner, statement, [fanout.sessionID])).map((row) => row.operatorID))];
  }

  async delete(runner: SqlRunner, fanoutID: string): Promise<void> {
    await run(runner, DELETE, [fanoutID]);
  }
}
