import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { firstRow, rows, run, sql, SqlRunner, TransactionalRepository, WebhookDeliveryStatus } from '@platform/database';
import type { PropagatedHeaders } from '@platform/observability';

/** A delivery a worker claimed: what the attempt sends, and where. */
export interface ClaimedDelivery {
  id: string;
  endpoint_id: string;
  event_id: string;
  payload: Record<string, unknown>;
  attempt_count: number;
  url: string;
  secret: string;
  /** The secret before the last rotation while it still signs, else null. */
  previous_secret: string | null;
  /** Request id and trace context of the change that caused the event: the attempt runs under them. */
  headers: PropagatedHeaders | null;
}

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: WebhookDeliveryStatus;
  attempt_count: number;
  last_status_code: number | null;
  next_attempt_at: Date | null;
  created_at: Date;
  completed_at: Date | null;
}

export interface AttemptRow {
  attempted_at: Date;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  succeeded: boolean;
}

export interface EndpointState {
  id: string;
  enabled: boolean;
}


/**
 * Whether delivery `d` may be attempted now: pending and due, its endpoint
 * enabled, no attempt of the same endpoint in flight (one at a time per
 * endpoint, so a slow receiver holds one worker at most), and for an ordered
 * event no older pending delivery of the same subject to that endpoint.
 */
const ATTEMPTABLE = `
      d.status = 'pending'
  AND d.next_attempt_at <= clock_timestamp()
  AND (d.leased_until IS NULL OR d.leased_until <= clock_timestamp())
  AND e.enabled
  AND NOT EXISTS (
        SELECT 1 FROM webhook_deliveries f
         WHERE f.endpoint_id = d.endpoint_id AND f.status = 'pending' AND f.leased_until > clock_timestamp() AND f.id <> d.id)
  AND NOT (d.ordering_key IS NOT NULL AND EXISTS (
        SELECT 1 FROM webhook_deliveries o
         WHERE o.endpoint_id = d.endpoint_id AND o.status = 'pending' AND o.ordering_key = d.ordering_key
           AND (o.occurred_at, o.event_id) < (d.occurred_at, d.event_id)))`;

/** Over-full endpoints subscribed to the event are disabled before the fan-out, which then skips them. */
const DISABLE_OVERFULL = sql<{ id: string }, [tenantID: string, type: string, maxPending: number, reason: string]>(
  `UPDATE webhook_endpoints e
      SET enabled = false, disabled_at = clock_timestamp(), disabled_reason = $4, updated_at = clock_timestamp()
    WHERE e.tenant_id = $1 AND e.enabled AND $2 = ANY(e.event_types)
      AND (SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'pending' LIMIT $3) AS p) >= $3
  RETURNING e.id`,
);

/** One delivery per subscribed enabled endpoint, due at once; a fan-out repeated after a crash adds nothing (unique per endpoint and event). */
const FAN_OUT = sql<{ id: string }, [tenantID: string, eventID: string, type: string, orderingKey: string | null, payload: string, occurredAt: string, headers: string | null]>(
  `INSERT INTO webhook_deliveries (tenant_id, endpoint_id, event_id, event_type, ordering_key, payload, occurred_at, headers, next_attempt_at)
   SELECT e.tenant_id, e.id, $2, $3, $4, $5::jsonb, $6::timestamptz, $7::jsonb, clock_timestamp()
     FROM webhook_endpoints e
    WHERE e.tenant_id = $1 AND e.enabled AND $3 = ANY(e.event_types)
   ON CONFLICT ON CONSTRAINT webhook_deliveries_endpoint_event_key DO NOTHING
   RETURNING id`,
);

/**
 * The endpoint of the most overdue attemptable delivery, its row locked so
 * that claims of one endpoint's deliveries take turns (one attempt in flight
 * per endpoint): an endpoint another claim holds is skipped, not waited for.
 * The claim itself (CLAIM) is a second statement, so it reads the rows as
 * they are once the lock is held, a lease committed meanwhile included.
 */
const PICK_DUE = sql<{ endpoint_id: string; delivery_id: string }, []>(
  `SELECT e.id AS endpoint_id, d.id AS delivery_id
     FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
    WHERE ${ATTEMPTABLE}
    ORDER BY d.next_attempt_at, d.occurred_at, d.event_id
    LIMIT 1
      FOR NO KEY UPDATE OF e SKIP LOCKED`,
);

const CLAIM = sql<ClaimedDelivery, [deliveryID: string, leaseSeconds: number]>(
  `UPDATE webhook_deliveries d
      SET leased_until = clock_timestamp() + make_interval(secs => $2)
     FROM webhook_endpoints e
    WHERE d.id = $1 AND e.id = d.endpoint_id AND ${ATTEMPTABLE}
  RETURNING d.id, d.endpoint_id, d.event_id, d.payload, d.attempt_count, d.headers, e.url, e.secret,
            CASE WHEN e.previous_secret_expires_at > clock_timestamp() THEN e.previous_secret END AS previous_secret`,
);

const RECORD_ATTEMPT = sql<never, [deliveryID: string, durationMs: number, statusCode: number | null, error: string | null, succeeded: boolean]>(
  `INSERT INTO webhook_delivery_attempts (delivery_id, duration_ms, status_code, error, succeeded) VALUES ($1, $2, $3, $4, $5)`,
);

const SUCCEED = sql<never, [deliveryID: string, statusCode: number]>(
  `UPDATE webhook_deliveries
      SET status = 'succeeded', attempt_count = attempt_count + 1, last_attempt_at = clock_timestamp(), last_status_code = $2,
          last_error = NULL, next_attempt_at = NULL, leased_until = NULL, completed_at = clock_timestamp()
    WHERE id = $1 AND status = 'pending'`,
);

/** A failed attempt: the next one after `retryDelayMs`, or none (`failed`) when it is null. */
const FAIL = sql<{ next_attempt_at: Date | null }, [deliveryID: string, statusCode: number | null, error: string, retryDelayMs: number | null]>(
  `UPDATE webhook_deliveries
      SET attempt_count = attempt_count + 1, last_attempt_at = clock_timestamp(), last_status_code = $2, last_error = $3, leased_until = NULL,
          status = CASE WHEN $4::int IS NULL THEN 'failed' ELSE 'pending' END,
          next_attempt_at = clock_timestamp() + make_interval(secs => $4::int / 1000.0),
          completed_at = CASE WHEN $4::int IS NULL THEN clock_timestamp() END
    WHERE id = $1 AND status = 'pending'
  RETURNING next_attempt_at`,
);

const ENDPOINT_SUCCEEDED = sql<never, [endpointID: string]>(`UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL`);

/** Starts (or continues) the endpoint's run of failures; says whether it has lasted long enough to disable the endpoint. */
const ENDPOINT_FAILED = sql<{ failing_since: Date; overdue: boolean }, [endpointID: string, disableAfterHours: number]>(
  `UPDATE webhook_endpoints
      SET failing_since = COALESCE(failing_since, clock_timestamp())
    WHERE id = $1
  RETURNING failing_since, failing_since <= clock_timestamp() - make_interval(hours => $2) AS overdue`,
);

const DISABLE = sql<never, [endpointID: string, reason: string]>(
  `UPDATE webhook_endpoints SET enabled = false, disabled_at = clock_timestamp(), disabled_reason = $2, updated_at = clock_timestamp()
    WHERE id = $1 AND enabled`,
);

const ENDPOINT_OF_TENANT = sql<EndpointState, [endpointID: string, tenantID: string]>(
  `SELECT id, enabled FROM webhook_endpoints WHERE id = $1 AND tenant_id = $2`,
);

const DELIVERY_COLUMNS = `id, endpoint_id, event_id, event_type, status, attempt_count, last_status_code, next_attempt_at, created_at, completed_at`;

const COUNT = sql<{ total: number }, [endpointID: string, status: string | null]>(
  `SELECT count(*)::int AS total FROM webhook_deliveries WHERE endpoint_id = $1 AND ($2::text IS NULL OR status = $2)`,
);

const PAGE = sql<DeliveryRow, [endpointID: string, status: string | null, limit: number, offset: number]>(
  `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
    WHERE endpoint_id = $1 AND ($2::text IS NULL OR status = $2)
    ORDER BY created_at DESC, id DESC
    LIMIT $3 OFFSET $4`,
);

const DELIVERY = sql<DeliveryRow, [deliveryID: string, endpointID: string]>(
  `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2`,
);

const DELIVERY_FOR_UPDATE = sql<DeliveryRow & { headers: PropagatedHeaders | null }, [deliveryID: string, endpointID: string]>(
  `SELECT ${DELIVERY_COLUMNS}, headers FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2 FOR UPDATE`,
);

const ATTEMPTS = sql<AttemptRow, [deliveryID: string]>(
  `SELECT attempted_at, status_code, duration_ms, error, succeeded FROM webhook_delivery_attempts WHERE delivery_id = $1 ORDER BY attempted_at, id`,
);

/** Due now, out of the retry schedule's wait; a failed delivery gets one more attempt (then fails again if it fails). */
const RESEND = sql<DeliveryRow, [deliveryID: string]>(
  `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = clock_timestamp(), completed_at = NULL
    WHERE id = $1
  RETURNING ${DELIVERY_COLUMNS}`,
);

const INSERT_TEST_DELIVERY = sql<DeliveryRow, [tenantID: string, endpointID: string, eventID: string, payload: string, headers: string | null]>(
  `INSERT INTO webhook_deliveries (tenant_id, endpoint_id, event_id, event_type, payload, occurred_at, headers, next_attempt_at)
   VALUES ($1, $2, $3, 'webhook.test', $4::jsonb, clock_timestamp(), $5::jsonb, clock_timestamp())
   RETURNING ${DELIVERY_COLUMNS}`,
);

const DELETE_CREATED_BEFORE = sql<never, [cutoff: Date, batch: number]>(
  `DELETE FROM webhook_deliveries
    WHERE id IN (SELECT id FROM webhook_deliveries WHERE created_at < $1 ORDER BY created_at LIMIT $2)`,
);

const PENDING_READING = sql<{ pending: number; oldest_due_seconds: number }>(
  `SELECT count(*)::int AS pending,
          COALESCE(EXTRACT(epoch FROM clock_timestamp() - min(d.next_attempt_at) FILTER (WHERE d.next_attempt_at <= clock_timestamp() AND e.enabled)), 0)::float8 AS oldest_due_seconds
     FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
    WHERE d.status = 'pending'`,
);

/**
 * `webhook_deliveries` and `webhook_delivery_attempts`, and the delivery
 * side of `webhook_endpoints` (failing_since, disabling). Writes that must
 * commit together run in the caller's transaction (`runner`).
 */
@Injectable()
export class WebhookDeliveriesRepository extends TransactionalRepository {
  async disableOverfull(runner: SqlRunner, tenantID: string, type: string, maxPending: number, reason: string): Promise<string[]> {
    return (await rows(runner, DISABLE_OVERFULL, [tenantID, type, maxPending, reason])).map((row) => row.id);
  }

  async fanOut(
    runner: SqlRunner,
    event: { tenantID: string; eventID: string; type: string; orderingKey: string | null; payload: object; occurredAt: string; headers: PropagatedHeaders | null },
  ): Promise<number> {
    return (await rows(runner, FAN_OUT, [
      event.tenantID,
      event.eventID,
      event.type,
      event.orderingKey,
      JSON.stringify(event.payload),
      event.occurredAt,
      event.headers ? JSON.stringify(event.headers) : null,
    ])).length;
  }

  /**
   * Claims the most overdue attemptable delivery (ATTEMPTABLE) for one
   * attempt: `claimed` is it, leased for `leaseSeconds`. `found` is false when
   * nothing was due; true without `claimed` when another replica's claim of
   * the same endpoint committed between the two statements (look again).
   */
  async claimDue(leaseSeconds: number): Promise<{ found: boolean; claimed?: ClaimedDelivery }> {
    return this.transaction(async (runner) => {
      const due = await firstRow(runner, PICK_DUE, []);
      if (!due) return { found: false };
      return { found: true, claimed: await firstRow(runner, CLAIM, [due.delivery_id, leaseSeconds]) };
    });
  }

  async recordAttempt(runner: SqlRunner, deliveryID: string, attempt: { durationMs: number; statusCode: number | null; error: string | null; succeeded: boolean }): Promise<void> {
    await run(runner, RECORD_ATTEMPT, [deliveryID, attempt.durationMs, attempt.statusCode, attempt.error, attempt.succeeded]);
  }

  async succeed(runner: SqlRunner, deliveryID: string, endpointID: string, statusCode: number): Promise<void> {
    await run(runner, SUCCEED, [deliveryID, statusCode]);
    await run(runner, ENDPOINT_SUCCEEDED, [endpointID]);
  }

  /** Records the failure; answers when the next attempt is due (undefined: the delivery failed for good). */
  async fail(runner: SqlRunner, deliveryID: string, statusCode: number | null, error: string, retryDelayMs: number | undefined): Promise<Date | undefined> {
    return (await firstRow(runner, FAIL, [deliveryID, statusCode, error, retryDelayMs ?? null]))?.next_attempt_at ?? undefined;
  }

  async endpointFailed(runner: SqlRunner, endpointID: string, disableAfterHours: number): Promise<{ failing_since: Date; overdue: boolean } | undefined> {
    return firstRow(runner, ENDPOINT_FAILED, [endpointID, disableAfterHours]);
  }

  async disable(runner: SqlRunner, endpointID: string, reason: string): Promise<void> {
    await run(runner, DISABLE, [endpointID, reason]);
  }

  async endpointOf(scope: TenantScope, endpointID: string, runner: SqlRunner = this.dataSource): Promise<EndpointState | undefined> {
    return firstRow(runner, ENDPOINT_OF_TENANT, [endpointID, scope.tenantID]);
  }

  async count(endpointID: string, status: WebhookDeliveryStatus | undefined): Promise<number> {
    return (await firstRow(this.dataSource, COUNT, [endpointID, status ?? null]))!.total;
  }

  async page(endpointID: string, status: WebhookDeliveryStatus | undefined, limit: number, offset: number): Promise<DeliveryRow[]> {
    return rows(this.dataSource, PAGE, [endpointID, status ?? null, limit, offset]);
  }

  async delivery(deliveryID: string, endpointID: string): Promise<DeliveryRow | undefined> {
    return firstRow(this.dataSource, DELIVERY, [deliveryID, endpointID]);
  }

  async deliveryForUpdate(runner: SqlRunner, deliveryID: string, endpointID: string): Promise<(DeliveryRow & { headers: PropagatedHeaders | null }) | undefined> {
    return firstRow(runner, DELIVERY_FOR_UPDATE, [deliveryID, endpointID]);
  }

  async attempts(deliveryID: string): Promise<AttemptRow[]> {
    return rows(this.dataSource, ATTEMPTS, [deliveryID]);
  }

  async resend(runner: SqlRunner, deliveryID: string): Promise<DeliveryRow> {
    return (await firstRow(runner, RESEND, [deliveryID]))!;
  }

  async insertTestDelivery(scope: TenantScope, endpointID: string, eventID: string, payload: object, headers: PropagatedHeaders | null): Promise<DeliveryRow> {
    return (await firstRow(this.dataSource, INSERT_TEST_DELIVERY, [scope.tenantID, endpointID, eventID, JSON.stringify(payload), headers ? JSON.stringify(headers) : null]))!;
  }

  /** Deletes up to `batch` deliveries created before `cutoff` (their attempts cascade); returns how many. */
  async deleteCreatedBefore(cutoff: Date, batch: number): Promise<number> {
    return (await run(this.dataSource, DELETE_CREATED_BEFORE, [cutoff, batch])).count;
  }

  async pendingReading(): Promise<{ pending: number; oldest_due_seconds: number }> {
    return (await firstRow(this.dataSource, PENDING_READING, []))!;
  }
}
