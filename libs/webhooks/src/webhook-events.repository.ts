import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { rows, run, sql, SqlRunner } from '@platform/database';
import type { PropagatedHeaders } from '@platform/observability';
import { DataSource } from 'typeorm';

/** An event as it is appended: the tenant comes from the scope. */
export interface NewWebhookEvent {
  type: string;
  version: number;
  orderingKey: string | null;
  data: object;
  emittedBy: string;
  headers: PropagatedHeaders | null;
}

/** Many events of one type as they are appended by one statement. */
export interface NewWebhookEvents extends Omit<NewWebhookEvent, 'orderingKey' | 'data'> {
  events: { orderingKey: string | null; data: object }[];
}

/** An event the dispatcher claimed, with what each delivery copies. */
export interface UndispatchedWebhookEvent {
  id: string;
  tenantID: string;
  type: string;
  version: number;
  orderingKey: string | null;
  data: Record<string, unknown>;
  occurredAt: Date;
  /**
   * `occurred_at` to the microsecond (ISO 8601, UTC). A Date keeps only
   * milliseconds, and two events of one subject can occur within one:
   * deliveries copy this exact instant, which orders them.
   */
  occurredAtExact: string;
  headers: PropagatedHeaders | null;
}

const APPEND = sql<never, [string, string, number, string | null, string, string, string | null]>(
  `INSERT INTO webhook_events (tenant_id, type, version, ordering_key, data, emitted_by, headers)
   VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7::jsonb)`,
);

/**
 * One row per element of `$6` (a JSON array of `{orderingKey, data}`), in
 * the array's order: `occurred_at` is the clock at each row's insert, so
 * the rows keep that order.
 */
const APPEND_MANY = sql<never, [tenantID: string, type: string, version: number, emittedBy: string, headers: string | null, events: string]>(
  `INSERT INTO webhook_events (tenant_id, type, version, ordering_key, data, emitted_by, headers)
   SELECT $1, $2, $3, e.event->>'orderingKey', e.event->'data', $4, $5::jsonb
     FROM jsonb_array_elements($6::jsonb) WITH ORDINALITY AS e(event, position)
    ORDER BY e.position`,
);

/**
 * The oldest undispatched events, locked until the claiming transaction ends;
 * another dispatcher skips them. Oldest first, so the deliveries of one
 * subject are created in the order its events occurred.
 */
const CLAIM_UNDISPATCHED = sql<UndispatchedWebhookEvent, [batch: number]>(
  `SELECT id, tenant_id AS "tenantID", type, version, ordering_key AS "orderingKey", data, occurred_at AS "occurredAt",
          to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "occurredAtExact", headers
     FROM webhook_events
    WHERE dispatched_at IS NULL
    ORDER BY occurred_at, id
    LIMIT $1
      FOR UPDATE SKIP LOCKED`,
);

const MARK_DISPATCHED = sql<never, [ids: string[]]>(`UPDATE webhook_events SET dispatched_at = clock_timestamp() WHERE id = ANY($1::uuid[])`);

/**
 * Oldest first, a bounded batch at a time, so a sweep never holds many row locks at once.
 * An event is kept until the real-time gateway's relay streamed it too (`streamed_at`).
 */
const DELETE_DISPATCHED_BEFORE = sql<never, [cutoff: Date, batch: number]>(
  `DELETE FROM webhook_events
    WHERE id IN (SELECT id FROM webhook_events WHERE dispatched_at < $1 AND streamed_at IS NOT NULL ORDER BY dispatched_at LIMIT $2)`,
);

/** An event the real-time relay claimed (docs/realtime.md). */
export interface UnstreamedWebhookEvent {
  id: string;
  tenantID: string;
  type: string;
  orderingKey: string | null;
  data: Record<string, unknown>;
  /** `occurred_at` to the microsecond (ISO 8601, UTC). */
  occurredAtExact: string;
}

/**
 * The real-time relay's claim: one relay at a time (the transaction-level
 * advisory lock; another replica's claim answers nothing until it commits),
 * so the streams receive events in one order, the order their rows became
 * visible. Oldest first among what is visible.
 */
const CLAIM_UNSTREAMED = sql<UnstreamedWebhookEvent, [lockKey: string, batch: number]>(
  `SELECT id, tenant_id AS "tenantID", type, ordering_key AS "orderingKey", data,
          to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "occurredAtExact"
     FROM webhook_events
    WHERE streamed_at IS NULL AND pg_try_advisory_xact_lock(hashtext($1))
    ORDER BY occurred_at, id
    LIMIT $2
      FOR UPDATE SKIP LOCKED`,
);

const MARK_STREAMED = sql<never, [ids: string[]]>(`UPDATE webhook_events SET streamed_at = clock_timestamp() WHERE id = ANY($1::uuid[])`);

/**
 * The webhook outbox (`webhook_events`). Every app appends through this
 * class in the transaction of its change; services-api's dispatcher claims
 * and marks through it too, so the table has one writer in code.
 */
@Injectable()
export class WebhookEventsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Appends in the caller's transaction (`runner` is its EntityManager): the event commits or rolls back with the change. */
  async append(runner: SqlRunner, scope: TenantScope, event: NewWebhookEvent): Promise<void> {
    await run(runner, APPEND, [
      scope.tenantID,
      event.type,
      event.version,
      event.orderingKey,
      JSON.stringify(event.data),
      event.emittedBy,
      event.headers ? JSON.stringify(event.headers) : null,
    ]);
  }

  /** Appends many events of one type with one statement, in the caller's transaction. */
  async appendMany(runner: SqlRunner, scope: TenantScope, batch: NewWebhookEvents): Promise<void> {
    if (batch.events.length === 0) return;
    await run(runner, APPEND_MANY, [
      scope.tenantID,
      batch.type,
      batch.version,
      batch.emittedBy,
      batch.headers ? JSON.stringify(batch.headers) : null,
      JSON.stringify(batch.events),
    ]);
  }

  /** Claims up to `batch` events in `runner`'s transaction; mark them dispatched in the same transaction. */
  async claimUndispatched(runner: SqlRunner, batch: number): Promise<UndispatchedWebhookEvent[]> {
    return rows(runner, CLAIM_UNDISPATCHED, [batch]);
  }

  async markDispatched(runner: SqlRunner, eventIDs: string[]): Promise<void> {
    if (eventIDs.length > 0) await run(runner, MARK_DISPATCHED, [eventIDs]);
  }

  /** The real-time relay's claim of up to `batch` unstreamed events in `runner`'s transaction; nothing while another relay holds `lockKey`. */
  async claimUnstreamed(runner: SqlRunner, lockKey: string, batch: number): Promise<UnstreamedWebhookEvent[]> {
    return rows(runner, CLAIM_UNSTREAMED, [lockKey, batch]);
  }

  async markStreamed(runner: SqlRunner, eventIDs: string[]): Promise<void> {
    if (eventIDs.length > 0) await run(runner, MARK_STREAMED, [eventIDs]);
  }

  /** Deletes up to `batch` events dispatched (and streamed) before `cutoff`; returns how many it deleted. */
  async deleteDispatchedBefore(cutoff: Date, batch: number): Promise<number> {
    return (await run(this.dataSource, DELETE_DISPATCHED_BEFORE, [cutoff, batch])).count;
  }
}
