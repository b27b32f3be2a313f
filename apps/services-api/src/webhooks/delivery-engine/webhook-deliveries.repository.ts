import { Injectable } from '@nestjs/common';
import { firstRow, rows, run, sql, SqlRunner, TransactionalRepository } from '@platform/database';
import type { PropagatedHeaders } from '@platform/observability';

/** A delivery the engine claimed: what the attempt sends, and where. */
export interface ClaimedDelivery {
  webhookDeliveryID: string;
  tenantID: string;
  endpointID: string;
  eventID: string;
  payload: Record<string, unknown>;
  attemptCount: number;
  url: string;
  /** The endpoint's sealed secret. */
  secret: string;
  /** The sealed secret before the last rotation while it still signs, else null. */
  previousSecret: string | null;
  /** Request id and trace context of the change that caused the event: the attempt runs under them. */
  headers: PropagatedHeaders | null;
}

/** An event fanned out: each subscribed enabled endpoint gets a delivery of it. */
export interface FannedOutEvent {
  tenantID: string;
  eventID: string;
  type: string;
  orderingKey: string | null;
  payload: object;
  /** The event's exact instant (microseconds, ISO 8601): it orders the deliveries of one subject. */
  occurredAt: string;
  headers: PropagatedHeaders | null;
}

export interface AttemptRecord {
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  succeeded: boolean;
}

/**
 * Whether delivery `d` of endpoint `e` may be attempted now: pending and due,
 * its endpoint enabled, no attempt of the same endpoint in flight (one at a
 * time per endpoint, so a slow receiver holds one lane at most), and for an
 * ordered event no older pending delivery of the same subject to that
 * endpoint. The one definition of "due" for webhook deliveries.
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
 * The most overdue attemptable delivery, its endpoint's row locked so that
 * claims of one endpoint's deliveries take turns (one attempt in flight per
 * endpoint, across replicas): an endpoint another claim holds is skipped, not
 * waited for. The claim itself (CLAIM) is a second statement, so that it
 * reads the rows as they are once the lock is held, a lease another replica
 * committed meanwhile included (a statement's snapshot is taken before it
 * locks).
 */
const PICK_DUE = sql<{ deliveryID: string }, []>(
  `SELECT d.id AS "deliveryID"
     FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
    WHERE ${ATTEMPTABLE}
    ORDER BY d.next_attempt_at, d.occurred_at, d.event_id
    LIMIT 1
      FOR NO KEY UPDATE OF e SKIP LOCKED`,
);

/** Leases the delivery for one attempt if it is still attemptable. */
const CLAIM = sql<ClaimedDelivery, [deliveryID: string, leaseSeconds: number]>(
  `UPDATE webhook_deliveries d
      SET leased_until = clock_timestamp() + make_interval(secs => $2)
     FROM webhook_endpoints e
    WHERE d.id = $1 AND e.id = d.endpoint_id AND ${ATTEMPTABLE}
  RETURNING d.id AS "webhookDeliveryID", d.tenant_id AS "tenantID", d.endpoint_id AS "endpointID", d.event_id AS "eventID",
            d.payload, d.attempt_count AS "attemptCount", d.headers, e.url, e.secret,
            CASE WHEN e.previous_secret_expires_at > clock_timestamp() THEN e.previous_secret END AS "previousSecret"`,
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

/** A failed attempt: the next one after `retryDelayMs` (the row's next_attempt_at is the retry), or none (`failed`) when it is null. */
const FAIL = sql<{ nextAttemptAt: Date | null }, [deliveryID: string, statusCode: number | null, error: string, retryDelayMs: number | null]>(
  `UPDATE webhook_deliveries
      SET attempt_count = attempt_count + 1, last_attempt_at = clock_timestamp(), last_status_code = $2, last_error = $3, leased_until = NULL,
          status = CASE WHEN $4::int IS NULL THEN 'failed' ELSE 'pending' END,
          next_attempt_at = clock_timestamp() + make_interval(secs => $4::int / 1000.0),
          completed_at = CASE WHEN $4::int IS NULL THEN clock_timestamp() END
    WHERE id = $1 AND status = 'pending'
  RETURNING next_attempt_at AS "nextAttemptAt"`,
);

const DELETE_CREATED_BEFORE = sql<never, [cutoff: Date, batch: number]>(
  `DELETE FROM webhook_deliveries
    WHERE id IN (SELECT id FROM webhook_deliveries WHERE created_at < $1 ORDER BY created_at LIMIT $2)`,
);

const PENDING_READING = sql<{ pending: number; oldestDueSeconds: number }>(
  `SELECT count(*)::int AS pending,
          COALESCE(EXTRACT(epoch FROM clock_timestamp() - min(d.next_attempt_at) FILTER (WHERE d.next_attempt_at <= clock_timestamp() AND e.enabled)), 0)::float8 AS "oldestDueSeconds"
     FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
    WHERE d.status = 'pending'`,
);

/**
 * The delivery engine's side of `webhook_deliveries` and
 * `webhook_delivery_attempts`: the fan-out, the claim, the outcome,
 * retention and the metrics' reading. The endpoint's own state (its run of
 * failures, disabling) is WebhookEndpointsRepository's. Writes that must
 * commit together run in the caller's transaction (`runner`). A background
 * job's: no method takes a request's TenantScope.
 */
@Injectable()
export class WebhookDeliveriesRepository extends TransactionalRepository {
  /** Answers how many deliveries the event made. */
  async fanOut(runner: SqlRunner, event: FannedOutEvent): Promise<number> {
    const made = await rows(runner, FAN_OUT, [
      event.tenantID,
      event.eventID,
      event.type,
      event.orderingKey,
      JSON.stringify(event.payload),
      event.occurredAt,
      event.headers ? JSON.stringify(event.headers) : null,
    ]);
    return made.length;
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
      return { found: true, claimed: await firstRow(runner, CLAIM, [due.deliveryID, leaseSeconds]) };
    });
  }

  async recordAttempt(runner: SqlRunner, deliveryID: string, attempt: AttemptRecord): Promise<void> {
    await run(runner, RECORD_ATTEMPT, [deliveryID, attempt.durationMs, attempt.statusCode, attempt.error, attempt.succeeded]);
  }

  async succeed(runner: SqlRunner, deliveryID: string, statusCode: number): Promise<void> {
    await run(runner, SUCCEED, [deliveryID, statusCode]);
  }

  /** Records the failure; answers when the next attempt is due (undefined: the delivery failed for good). */
  async fail(runner: SqlRunner, deliveryID: string, statusCode: number | null, error: string, retryDelayMs: number | undefined): Promise<Date | undefined> {
    return (await firstRow(runner, FAIL, [deliveryID, statusCode, error, retryDelayMs ?? null]))?.nextAttemptAt ?? undefined;
  }

  /** Deletes up to `batch` deliveries created before `cutoff` (their attempts cascade); returns how many. */
  async deleteCreatedBefore(cutoff: Date, batch: number): Promise<number> {
    return (await run(this.dataSource, DELETE_CREATED_BEFORE, [cutoff, batch])).count;
  }

  async pendingReading(): Promise<{ pending: number; oldestDueSeconds: number }> {
    return (await firstRow(this.dataSource, PENDING_READING, []))!;
  }
}
