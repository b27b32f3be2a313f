import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { firstRow, rows, run, sql, SqlRunner, TransactionalRepository } from '@platform/database';
import { rethrowForeignKeyViolation } from '@platform/errors';
import { DataSource } from 'typeorm';
import type { PresenceStatus, SocketFacts } from './presence-status';

/** An operator's presence row: the chosen status, the status in effect and when it last changed. */
export interface PresenceRow {
  tenantID: string;
  operatorID: string;
  chosenStatus: PresenceStatus;
  status: PresenceStatus;
  changedAt: Date;
}

/** A member as the tenant's list shows them: no row is offline, never recorded. */
export interface ListedPresence {
  operatorID: string;
  status: PresenceStatus;
  changedAt: Date | null;
}

/** Seconds of the two thresholds, as the statements take them. */
export interface PresenceThresholds {
  offlineGraceSeconds: number;
  awayAfterSeconds: number;
}

const RETURNED = `tenant_id AS "tenantID", operator_id AS "operatorID", chosen_status AS "chosenStatus", status, changed_at AS "changedAt"`;

const FIND = sql<PresenceRow, [tenantID: string, operatorID: string]>(
  `SELECT ${RETURNED} FROM operator_presence WHERE tenant_id = $1 AND operator_id = $2`,
);

/**
 * Records the chosen status and locks the row until the transaction ends
 * (the reconciler skips it meanwhile). A first choice creates the row
 * offline: the status in effect is worked out next, from the sockets.
 */
const CHOOSE = sql<PresenceRow, [tenantID: string, operatorID: string, chosen: PresenceStatus]>(
  `INSERT INTO operator_presence (tenant_id, operator_id, chosen_status, status) VALUES ($1, $2, $3, 'offline')
   ON CONFLICT (tenant_id, operator_id) DO UPDATE SET chosen_status = EXCLUDED.chosen_status
   RETURNING ${RETURNED}`,
);

/**
 * What the operator's socket leases (the real-time gateway's table, a listed
 * read path) say now: whether one was seen within the grace, and whether the
 * last activity of those is older than the away threshold.
 */
const FACTS = sql<SocketFacts, [tenantID: string, operatorID: string, graceSeconds: number, awaySeconds: number]>(
  `SELECT count(*) > 0 AS live,
          coalesce(max(last_activity_at) < now() - make_interval(secs => $4), true) AS idle
     FROM operator_socket_leases
    WHERE tenant_id = $1 AND operator_id = $2 AND seen_at > now() - make_interval(secs => $3)`,
);

const SET_STATUS = sql<PresenceRow, [tenantID: string, operatorID: string, status: PresenceStatus]>(
  `UPDATE operator_presence SET status = $3, changed_at = now() WHERE tenant_id = $1 AND operator_id = $2 RETURNING ${RETURNED}`,
);

/** The operators with a lease seen within the grace: `active_at` is their sockets' last activity. */
const LIVE_LEASES = `SELECT tenant_id, operator_id, max(last_activity_at) AS active_at
                       FROM operator_socket_leases
                      WHERE seen_at > now() - make_interval(secs => $1)
                      GROUP BY tenant_id, operator_id`;

/**
 * The rule of presence-status.ts in SQL, over a presence row `p` and its
 * live leases `l` (none: NULL): the two take the same facts, as of the
 * statement's instant.
 */
const EFFECTIVE = `CASE WHEN p.chosen_status = 'offline' OR l.operator_id IS NULL THEN 'offline'
                        WHEN p.chosen_status = 'online' AND l.active_at < now() - make_interval(secs => $2) THEN 'away'
                        ELSE p.chosen_status END`;

/**
 * An operator whose socket connected before they had a row gets one
 * (chosen online, offline until the reconciler moves it), so the moves
 * below only ever update rows they can lock.
 */
const ENSURE_ROWS = sql<never, [graceSeconds: number]>(
  `INSERT INTO operator_presence (tenant_id, operator_id, chosen_status, status)
   SELECT DISTINCT l.tenant_id, l.operator_id, 'online', 'offline'
     FROM operator_socket_leases l
    WHERE l.seen_at > now() - make_interval(secs => $1)
      AND NOT EXISTS (SELECT 1 FROM operator_presence p WHERE p.tenant_id = l.tenant_id AND p.operator_id = l.operator_id)
   ON CONFLICT (tenant_id, operator_id) DO NOTHING`,
);

/**
 * Moves up to `$3` operators whose status in effect is no longer the one
 * recorded. The candidates are those with a live lease and those recorded
 * other than offline (operator_presence_present_idx): anyone else is
 * offline and stays so. Rows another transaction holds (a PUT, another
 * replica's reconciler) are skipped, and the rule is checked again on the
 * locked row, so every move is made once, on its latest chosen status.
 */
const MOVE_DUE = sql<PresenceRow, [graceSeconds: number, awaySeconds: number, limit: number]>(
  `WITH l AS (${LIVE_LEASES}),
   due AS (
     SELECT p.tenant_id, p.operator_id, ${EFFECTIVE} AS effective
       FROM operator_presence p
       LEFT JOIN l ON l.tenant_id = p.tenant_id AND l.operator_id = p.operator_id
      WHERE (p.tenant_id, p.operator_id) IN (SELECT tenant_id, operator_id FROM l
                                             UNION ALL
                                             SELECT tenant_id, operator_id FROM operator_presence WHERE status <> 'offline')
        AND ${EFFECTIVE} <> p.status
      ORDER BY p.tenant_id, p.operator_id
      LIMIT $3
      FOR UPDATE OF p SKIP LOCKED
   )
   UPDATE operator_presence p SET status = due.effective, changed_at = now()
     FROM due
    WHERE p.tenant_id = due.tenant_id AND p.operator_id = due.operator_id
   RETURNING p.tenant_id AS "tenantID", p.operator_id AS "operatorID", p.chosen_status AS "chosenStatus", p.status, p.changed_at AS "changedAt"`,
);

/** A page of the tenant's members (core-tenants' memberships, a listed read path) with their presence, by operator id. */
const PAGE = sql<ListedPresence, [tenantID: string, afterOperatorID: string | null, limit: number]>(
  `SELECT m.operator_id AS "operatorID", coalesce(p.status, 'offline') AS status, p.changed_at AS "changedAt"
     FROM memberships m
     LEFT JOIN operator_presence p ON p.tenant_id = m.tenant_id AND p.operator_id = m.operator_id
    WHERE m.tenant_id = $1 AND ($2::uuid IS NULL OR m.operator_id > $2::uuid)
    ORDER BY m.operator_id
    LIMIT $3`,
);

/** Operator presence (docs/presence.md): the chosen and effective statuses, and the socket facts they follow. */
@Injectable()
export class PresenceRepository extends TransactionalRepository {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  find(scope: TenantScope, operatorID: string, runner: SqlRunner = this.dataSource): Promise<PresenceRow | undefined> {
    return firstRow(runner, FIND, [scope.tenantID, operatorID]);
  }

  /** Records the choice; 403 1004 when the membership is gone (removed since the caller's access check). */
  async choose(runner: SqlRunner, scope: TenantScope, operatorID: string, chosen: PresenceStatus): Promise<PresenceRow> {
    const row = await firstRow(runner, CHOOSE, [scope.tenantID, operatorID, chosen]).catch((error: unknown) =>
      rethrowForeignKeyViolation(error, { operator_presence_membership_fkey: 'Forbidden' }),
    );
    if (!row) throw new Error('the presence upsert returned no row');
    return row;
  }

  async socketFacts(runner: SqlRunner, scope: TenantScope, operatorID: string, thresholds: PresenceThresholds): Promise<SocketFacts> {
    const facts = await firstRow(runner, FACTS, [scope.tenantID, operatorID, thresholds.offlineGraceSeconds, thresholds.awayAfterSeconds]);
    return facts ?? { live: false, idle: true };
  }

  async setStatus(runner: SqlRunner, scope: TenantScope, operatorID: string, status: PresenceStatus): Promise<PresenceRow> {
    const row = await firstRow(runner, SET_STATUS, [scope.tenantID, operatorID, status]);
    if (!row) throw new Error('the presence row vanished under its lock');
    return row;
  }

  /** Gives a row to every operator with a live lease and none yet; their moves follow in `moveDue`. */
  async ensureRowsForLiveLeases(runner: SqlRunner, thresholds: PresenceThresholds): Promise<void> {
    await run(runner, ENSURE_ROWS, [thresholds.offlineGraceSeconds]);
  }

  /** Moves up to `limit` operators to the status in effect now; answers the moved rows. */
  moveDue(runner: SqlRunner, thresholds: PresenceThresholds, limit: number): Promise<PresenceRow[]> {
    return rows(runner, MOVE_DUE, [thresholds.offlineGraceSeconds, thresholds.awayAfterSeconds, limit]);
  }

  page(scope: TenantScope, afterOperatorID: string | undefined, limit: number): Promise<ListedPresence[]> {
    return rows(this.dataSource, PAGE, [scope.tenantID, afterOperatorID ?? null, limit]);
  }
}
