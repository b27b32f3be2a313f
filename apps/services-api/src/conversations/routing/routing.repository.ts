import { Injectable } from '@nestjs/common';
import { firstRow, rows, run, sql, SqlRunner, TransactionalRepository } from '@platform/database';
import type { RoutingPolicy, RoutingPolicyName } from './routing-policy';

interface PolicyRow {
  inbox_id: string;
  policy: RoutingPolicyName | null;
  capacity: number | null;
  operator_ids: string[] | null;
  requeue_offline_after_seconds: number | null;
}

const POLICY_COLUMNS = 'p.policy, p.capacity, p.operator_ids, p.requeue_offline_after_seconds';

/** A live inbox of the tenant and its stored policy (null columns: none stored). */
const LIVE_INBOX_POLICY = sql<PolicyRow, [tenantID: string, inboxID: string]>(
  `SELECT i.id AS inbox_id, ${POLICY_COLUMNS}
     FROM inboxes i LEFT JOIN inbox_routing_policies p ON p.inbox_id = i.id
    WHERE i.tenant_id = $1 AND i.id = $2 AND i.removed_at IS NULL`,
);

/** Stores the policy of a live inbox of the tenant; no row when the tenant has no such inbox. */
const UPSERT_POLICY = sql<{ inbox_id: string }, [tenantID: string, inboxID: string, policy: string, capacity: number, operatorIDs: string[], requeueSeconds: number | null]>(
  `INSERT INTO inbox_routing_policies (inbox_id, tenant_id, policy, capacity, operator_ids, requeue_offline_after_seconds, updated_at)
   SELECT i.id, i.tenant_id, $3, $4, $5, $6, clock_timestamp() FROM inboxes i WHERE i.tenant_id = $1 AND i.id = $2 AND i.removed_at IS NULL
   ON CONFLICT (inbox_id) DO UPDATE
      SET policy = excluded.policy, capacity = excluded.capacity, operator_ids = excluded.operator_ids,
          requeue_offline_after_seconds = excluded.requeue_offline_after_seconds, updated_at = excluded.updated_at
   RETURNING inbox_id`,
);

/** The ids of `$2` that are not members of the tenant. */
const NON_MEMBERS = sql<{ operator_id: string }, [tenantID: string, operatorIDs: string[]]>(
  `SELECT named.operator_id FROM unnest($2::uuid[]) AS named (operator_id)
    WHERE NOT EXISTS (SELECT 1 FROM memberships m WHERE m.tenant_id = $1 AND m.operator_id = named.operator_id)`,
);

/** The routed (not manual) policies of the tenant's live inboxes. */
const ROUTED_POLICIES = sql<PolicyRow, [tenantID: string]>(
  `SELECT p.inbox_id, ${POLICY_COLUMNS}
     FROM inbox_routing_policies p JOIN inboxes i ON i.id = p.inbox_id AND i.removed_at IS NULL
    WHERE p.tenant_id = $1 AND p.policy <> 'manual'`,
);

/** The policy of one inbox, routed or not, when one is stored. */
const POLICY_OF = sql<PolicyRow, [tenantID: string, inboxID: string]>(
  `SELECT p.inbox_id, ${POLICY_COLUMNS} FROM inbox_routing_policies p WHERE p.tenant_id = $1 AND p.inbox_id = $2`,
);

/**
 * The first step of the fixed lock order (docs/conversations.md#routing):
 * one routing pass of a tenant at a time, across replicas. Manual
 * assignments do not take it; they start at the session's lock.
 */
const LOCK_TENANT_ROUTING = sql<never, [tenantID: string]>(`SELECT pg_advisory_xact_lock(hashtextextended('routing:' || $1::text, 0))`);

/**
 * The last step of the lock order: every assignment to an operator (automatic
 * or manual, take, assign or transfer) holds it while it counts their open
 * sessions and assigns, so two assignments never both see room for one.
 */
const LOCK_OPERATOR_CAPACITY = sql<never, [tenantID: string, operatorID: string]>(
  `SELECT pg_advisory_xact_lock(hashtextextended('routing-operator:' || $1::text || ':' || $2::text, 0))`,
);

/** The operator's open sessions tenant-wide (sessions_operator_open_idx). */
const OPEN_LOAD = sql<{ load: number }, [tenantID: string, operatorID: string]>(
  `SELECT count(*)::int AS load FROM sessions WHERE tenant_id = $1 AND operator_id = $2 AND closed_at IS NULL`,
);

const RECORD_TURN = sql<never, [tenantID: string, operatorID: string]>(
  `INSERT INTO routing_operator_turns (tenant_id, operator_id, last_assigned_at) VALUES ($1, $2, clock_timestamp())
   ON CONFLICT (tenant_id, operator_id) DO UPDATE SET last_assigned_at = excluded.last_assigned_at`,
);

/**
 * The eligible operators of an inbox, best first: members (those the policy
 * names, or all), online, under capacity. least-loaded ranks by open
 * sessions; both policies then prefer whoever waited longest since their
 * last assignment (never assigned first), then the id, so the order is total.
 */
const ELIGIBLE = sql<{ operator_id: string; load: number }, [tenantID: string, operatorIDs: string[], policy: string, capacity: number]>(
  `SELECT operator_id, load FROM (
     SELECT m.operator_id, t.last_assigned_at,
            (SELECT count(*)::int FROM sessions s WHERE s.tenant_id = m.tenant_id AND s.operator_id = m.operator_id AND s.closed_at IS NULL) AS load
       FROM memberships m
       JOIN operator_presence pr ON pr.tenant_id = m.tenant_id AND pr.operator_id = m.operator_id AND pr.status = 'online'
       LEFT JOIN routing_operator_turns t ON t.tenant_id = m.tenant_id AND t.operator_id = m.operator_id
      WHERE m.tenant_id = $1 AND (cardinality($2::uuid[]) = 0 OR m.operator_id = ANY ($2::uuid[]))
   ) candidates
   WHERE load < $4
   ORDER BY CASE WHEN $3 = 'least-loaded' THEN load ELSE 0 END, last_assigned_at ASC NULLS FIRST, operator_id`,
);

/**
 * The oldest queued session of these inboxes (sessions_queued_idx), not
 * locked: the pass then locks it and checks it again (`lockQueued`), waiting
 * for whoever holds it. Skipping locked rows instead would pass over a
 * session merely referenced by a concurrent insert (a message, a
 * notification: their foreign keys lock it in share mode) and leave it
 * queued with no pass to come.
 */
const NEXT_QUEUED = sql<{ id: string }, [tenantID: string, inboxIDs: string[]]>(
  `SELECT id FROM sessions
    WHERE tenant_id = $1 AND inbox_id = ANY ($2::uuid[]) AND closed_at IS NULL AND operator_id IS NULL
    ORDER BY created_at, id LIMIT 1`,
);

/** Locks the session and answers its inbox if it is still queued (the row is checked again once the lock is held). */
const LOCK_QUEUED = sql<{ id: string; inbox_id: string }, [tenantID: string, sessionID: string]>(
  `SELECT id, inbox_id FROM sessions WHERE tenant_id = $1 AND id = $2 AND closed_at IS NULL AND operator_id IS NULL FOR UPDATE`,
);

/**
 * Assigned open sessions of these inboxes whose assignee has been offline
 * past its inbox's limit (no presence row: offline, since no known time).
 */
const STRANDED = `SELECT s.id, s.operator_id, pr.changed_at AS offline_since
     FROM sessions s
     JOIN inbox_routing_policies p ON p.inbox_id = s.inbox_id
     LEFT JOIN operator_presence pr ON pr.tenant_id = s.tenant_id AND pr.operator_id = s.operator_id
    WHERE s.tenant_id = $1 AND s.inbox_id = ANY ($2::uuid[]) AND s.closed_at IS NULL AND s.operator_id IS NOT NULL
      AND p.requeue_offline_after_seconds IS NOT NULL
      AND (pr.status IS NULL OR pr.status = 'offline')
      AND (pr.changed_at IS NULL OR pr.changed_at <= clock_timestamp() - make_interval(secs => p.requeue_offline_after_seconds))`;

type StrandedRow = { id: string; operator_id: string; offline_since: Date | null };

/** The first stranded session, not locked (as NEXT_QUEUED). */
const NEXT_STRANDED = sql<StrandedRow, [tenantID: string, inboxIDs: string[]]>(`${STRANDED} ORDER BY s.created_at, s.id LIMIT 1`);

/** Locks the session and answers it if it is still stranded. */
const LOCK_STRANDED = sql<StrandedRow, [tenantID: string, inboxIDs: string[], sessionID: string]>(`${STRANDED} AND s.id = $3 FOR UPDATE OF s`);

/** The previous assignee stays a participant, as after a transfer; the session is queued again now. */
const REQUEUE = sql<never, [tenantID: string, sessionID: string]>(
  `UPDATE sessions
      SET operator_participants_ids = CASE WHEN operator_id = ANY (operator_participants_ids) THEN operator_participants_ids
                                           ELSE array_append(operator_participants_ids, operator_id) END,
          operator_id = NULL, queued_at = clock_timestamp(), updated_at = clock_timestamp()
    WHERE tenant_id = $1 AND id = $2`,
);

/**
 * A pass is due for the tenant, if any of its inboxes is routed. A request
 * while a pass runs raises the generation, so that pass leaves the row due.
 */
const REQUEST = sql<{ tenant_id: string }, [tenantID: string]>(
  `INSERT INTO routing_requests (tenant_id, due_at)
   SELECT $1, clock_timestamp() WHERE EXISTS (SELECT 1 FROM inbox_routing_policies WHERE tenant_id = $1 AND policy <> 'manual')
   ON CONFLICT (tenant_id) DO UPDATE SET generation = routing_requests.generation + 1, due_at = LEAST(routing_requests.due_at, excluded.due_at)
   RETURNING tenant_id`,
);

/** The sweep: a request for every tenant with a queued session in a routed inbox, or a requeue limit to check. */
const SWEEP = sql<{ tenant_id: string }, []>(
  `INSERT INTO routing_requests (tenant_id, due_at)
   SELECT DISTINCT p.tenant_id, clock_timestamp() FROM inbox_routing_policies p
    WHERE p.policy <> 'manual'
      AND (p.requeue_offline_after_seconds IS NOT NULL
           OR EXISTS (SELECT 1 FROM sessions s WHERE s.tenant_id = p.tenant_id AND s.inbox_id = p.inbox_id AND s.closed_at IS NULL AND s.operator_id IS NULL))
   ON CONFLICT (tenant_id) DO UPDATE SET generation = routing_requests.generation + 1, due_at = LEAST(routing_requests.due_at, excluded.due_at)
   RETURNING tenant_id`,
);

/** Claims the most overdue request for a lease: a replica that dies mid-pass leaves it due again once the lease lapses. */
const CLAIM = sql<{ tenant_id: string; generation: string }, [leaseSeconds: number]>(
  `UPDATE routing_requests r SET due_at = clock_timestamp() + make_interval(secs => $1)
    WHERE r.tenant_id = (SELECT tenant_id FROM routing_requests WHERE due_at <= clock_timestamp() ORDER BY due_at LIMIT 1 FOR UPDATE SKIP LOCKED)
   RETURNING r.tenant_id, r.generation::text AS generation`,
);

/** Done, unless a request came while the pass ran (the generation moved): then the row stays for another pass. */
const FINISH = sql<never, [tenantID: string, generation: string]>(`DELETE FROM routing_requests WHERE tenant_id = $1 AND generation = $2::bigint`);

/** The pass failed: due again after a short wait rather than when the lease lapses. */
const RETRY_SOON = sql<never, [tenantID: string, afterSeconds: number]>(
  `UPDATE routing_requests SET due_at = LEAST(due_at, clock_timestamp() + make_interval(secs => $2)) WHERE tenant_id = $1`,
);

/** The pass stopped at its bound with work left: due again now. */
const DUE_NOW = sql<never, [tenantID: string]>(`UPDATE routing_requests SET due_at = clock_timestamp() WHERE tenant_id = $1`);

function policyOf(row: PolicyRow): RoutingPolicy {
  return {
    inboxID: row.inbox_id,
    policy: row.policy!,
    capacity: row.capacity!,
    operatorIDs: row.operator_ids ?? [],
    requeueOfflineAfterSeconds: row.requeue_offline_after_seconds,
  };
}

export interface StrandedSession {
  sessionID: string;
  operatorID: string;
  offlineSince: Date | null;
}

/** Routing's tables: inboxes' policies, operators' turns, due passes; and the reads and locks of a pass. */
@Injectable()
export class RoutingRepository extends TransactionalRepository {
  /** The live inbox's stored policy; null when it has none; undefined when the tenant has no such live inbox. */
  async storedPolicy(tenantID: string, inboxID: string): Promise<RoutingPolicy | null | undefined> {
    const row = await firstRow(this.dataSource, LIVE_INBOX_POLICY, [tenantID, inboxID]);
    if (!row) return undefined;
    return row.policy === null ? null : policyOf(row);
  }

  /** False when the tenant has no such live inbox. */
  async store(runner: SqlRunner, tenantID: string, policy: RoutingPolicy): Promise<boolean> {
    const stored = await firstRow(runner, UPSERT_POLICY, [tenantID, policy.inboxID, policy.policy, policy.capacity, policy.operatorIDs, policy.requeueOfflineAfterSeconds]);
    return stored !== undefined;
  }

  async nonMembers(tenantID: string, operatorIDs: string[]): Promise<string[]> {
    if (operatorIDs.length === 0) return [];
    return (await rows(this.dataSource, NON_MEMBERS, [tenantID, operatorIDs])).map((row) => row.operator_id);
  }

  async routedPolicies(runner: SqlRunner, tenantID: string): Promise<RoutingPolicy[]> {
    return (await rows(runner, ROUTED_POLICIES, [tenantID])).map(policyOf);
  }

  async policyOfInbox(runner: SqlRunner, tenantID: string, inboxID: string): Promise<RoutingPolicy | undefined> {
    const row = await firstRow(runner, POLICY_OF, [tenantID, inboxID]);
    return row ? policyOf(row) : undefined;
  }

  async lockTenantRouting(runner: SqlRunner, tenantID: string): Promise<void> {
    await run(runner, LOCK_TENANT_ROUTING, [tenantID]);
  }

  async lockOperatorCapacity(runner: SqlRunner, tenantID: string, operatorID: string): Promise<void> {
    await run(runner, LOCK_OPERATOR_CAPACITY, [tenantID, operatorID]);
  }

  async openLoad(runner: SqlRunner, tenantID: string, operatorID: string): Promise<number> {
    return (await firstRow(runner, OPEN_LOAD, [tenantID, operatorID]))!.load;
  }

  async recordTurn(runner: SqlRunner, tenantID: string, operatorID: string): Promise<void> {
    await run(runner, RECORD_TURN, [tenantID, operatorID]);
  }

  /** The inbox's eligible operators, best first (the policy's order). */
  async eligible(runner: SqlRunner, tenantID: string, policy: RoutingPolicy): Promise<string[]> {
    return (await rows(runner, ELIGIBLE, [tenantID, policy.operatorIDs, policy.policy, policy.capacity])).map((row) => row.operator_id);
  }

  /** The oldest queued session of these inboxes, unlocked: lock it with `lockQueued` before acting on it. */
  async nextQueued(runner: SqlRunner, tenantID: string, inboxIDs: string[]): Promise<string | undefined> {
    if (inboxIDs.length === 0) return undefined;
    return (await firstRow(runner, NEXT_QUEUED, [tenantID, inboxIDs]))?.id;
  }

  /** Locks the session (waiting for its holder); its inbox when it is still queued, else undefined. */
  async lockQueued(runner: SqlRunner, tenantID: string, sessionID: string): Promise<{ sessionID: string; inboxID: string } | undefined> {
    const row = await firstRow(runner, LOCK_QUEUED, [tenantID, sessionID]);
    return row && { sessionID: row.id, inboxID: row.inbox_id };
  }

  async nextStranded(runner: SqlRunner, tenantID: string, inboxIDs: string[]): Promise<string | undefined> {
    if (inboxIDs.length === 0) return undefined;
    return (await firstRow(runner, NEXT_STRANDED, [tenantID, inboxIDs]))?.id;
  }

  /** Locks the session (waiting for its holder); what makes it stranded when it still is, else undefined. */
  async lockStranded(runner: SqlRunner, tenantID: string, inboxIDs: string[], sessionID: string): Promise<StrandedSession | undefined> {
    const row = await firstRow(runner, LOCK_STRANDED, [tenantID, inboxIDs, sessionID]);
    return row && { sessionID: row.id, operatorID: row.operator_id, offlineSince: row.offline_since };
  }

  async requeue(runner: SqlRunner, tenantID: string, sessionID: string): Promise<void> {
    await run(runner, REQUEUE, [tenantID, sessionID]);
  }

  /** Records that a pass is due for the tenant; false when none of its inboxes is routed (nothing to do). */
  async request(runner: SqlRunner, tenantID: string): Promise<boolean> {
    return (await rows(runner, REQUEST, [tenantID])).length > 0;
  }

  /** Requests a pass for every tenant that may have work; answers how many. */
  async requestSweep(): Promise<number> {
    return (await rows(this.dataSource, SWEEP, [])).length;
  }

  async claim(leaseSeconds: number): Promise<{ tenantID: string; generation: string } | undefined> {
    const row = await firstRow(this.dataSource, CLAIM, [leaseSeconds]);
    return row && { tenantID: row.tenant_id, generation: row.generation };
  }

  async retrySoon(tenantID: string, afterSeconds: number): Promise<void> {
    await run(this.dataSource, RETRY_SOON, [tenantID, afterSeconds]);
  }

  async finish(tenantID: string, generation: string, moreLeft: boolean): Promise<void> {
    if (moreLeft) await run(this.dataSource, DUE_NOW, [tenantID]);
    else await run(this.dataSource, FINISH, [tenantID, generation]);
  }
}
