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

/** An event the dispatcher claimed, with what each delivery copies. */
export interface UndispatchedWebhookEvent {
  id: string;
  tenant_id: string;
  type: string;
  version: number;
  ordering_key: string | null;
  data: Record<string, unknown>;
  occurred_at: Date;
  /**
   * `occurred_at` to the microsecond (ISO 8601, UTC). A Date keeps only
   * milliseconds, and two events of one subject can occur within one:
   * deliveries copy this exact instant, which orders them.
   */
  occurred_at_exact: string;
  headers: PropagatedHeaders | null;
}

const APPEND = sql<never, [string, string, number, string | null, string, string, string | null]>(
  `INSERT INTO webhook_events (tenant_id, type, version, ordering_key, data, emitted_by, headers)
   VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7::jsonb)`,
);

/**
 * The oldest undispatched events, locked until the claiming transaction ends;
 * another dispatcher skips them. Oldest first, so the deliveries of one
 * subject are created in the order its events occurred.
 */
const CLAIM_UNDISPATCHED = sql<UndispatchedWebhookEvent, [batch: number]>(
  `SELECT id, tenant_id, type, version, ordering_key, data, occurred_at,
          to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS occurred_at_exact, headers
     FROM webhook_events
    WHERE dispatched_at IS NULL
    ORDER BY occurred_at, id
    LIMIT $1
      FOR UPDATE SKIP LOCKED`,
);

const MARK_DISPATCHED = sql<never, [ids: string[]]>(`UPDATE webhook_events SET dispatched_at = clock_timestamp() WHERE id = ANY($1::uuid[])`);

/** Oldest first, a bounded batch at a time, so a sweep never holds many row locks at once. */
const DELETE_DISPATCHED_BEFORE = sql<never, [cutoff: Date, batch: number]>(
  `DELETE FROM webhook_events
    WHERE id IN (SELECT id FROM webhook_events WHERE dispatched_at < $1 ORDER BY dispatched_at LIMIT $2)`,
);

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

  /** Claims up to `batch` events in `runner`'s transaction; mark them dispatched in the same transaction. */
  async claimUndispatched(runner: SqlRunner, batch: number): Promise<UndispatchedWebhookEvent[]> {
    return rows(runner, CLAIM_UNDISPATCHED, [batch]);
  }

  async markDispatched(runner: SqlRunner, eventIDs: string[]): Promise<void> {
    if (eventIDs.length > 0) await run(runner, MARK_DISPATCHED, [eventIDs]);
  }

  /** Deletes up to `batch` events dispatched before `cutoff`; returns how many it deleted. */
  async deleteDispatchedBefore(cutoff: Date, batch: number): Promise<number> {
    return (await run(this.dataSource, DELETE_DISPATCHED_BEFORE, [cutoff, batch])).count;
  }
}
