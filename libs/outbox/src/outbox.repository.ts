import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { firstRow, rows, run, sql, SqlRunner } from '@platform/database';
import type { PropagatedHeaders } from '@platform/observability';
import { DataSource } from 'typeorm';
import type { OutboxConsumer } from './outbox-consumers';

/** An event as it is appended: the tenant comes from the scope. */
export interface NewOutboxEvent {
  type: string;
  version: number;
  orderingKey: string | null;
  data: object;
  emittedBy: string;
  headers: PropagatedHeaders | null;
}

/** Many events of one type as they are appended by one statement. */
export interface NewOutboxEvents extends Omit<NewOutboxEvent, 'orderingKey' | 'data'> {
  events: { orderingKey: string | null; data: object }[];
}

/** An event a consumer claimed. */
export interface OutboxEvent {
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

/** Events of a tenant the retention sweep deleted before a consumer took them. */
export interface OutboxLoss {
  tenantID: string;
  events: number;
}

/** What one retention batch deleted: events, and per consumer how many of them it had not taken. */
export interface ExpiredOutboxEvents {
  deleted: number;
  unconsumed: Partial<Record<OutboxConsumer, number>>;
}

/**
 * The statement trigger `webhook_events_pending` (migration
 * 1765100000000-outbox-consumers) adds, within this same statement, one
 * `outbox_pending` row per consumer for each event appended.
 */
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
 * The consumer's lock, held until the claiming transaction ends: one replica
 * of a consumer works at a time, and another's try answers false at once.
 * A statement of its own, so that the claim after it reads with a snapshot
 * taken once the lock is held (the previous holder's work committed).
 */
const LOCK_CONSUMER = sql<{ locked: boolean }, [consumer: string]>(`SELECT pg_try_advisory_xact_lock(hashtext('outbox consumer ' || $1)) AS locked`);

/**
 * The consumer's oldest pending events, oldest first. No row lock: the
 * consumer's advisory lock is what keeps its replicas apart, and no other
 * consumer reads these rows, so nothing anyone holds can hide one.
 */
const CLAIM = sql<OutboxEvent, [consumer: string, batch: number]>(
  `SELECT e.id, e.tenant_id AS "tenantID", e.type, e.version, e.ordering_key AS "orderingKey", e.data, e.occurred_at AS "occurredAt",
          to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "occurredAtExact", e.headers
     FROM outbox_pending p JOIN webhook_events e ON e.id = p.event_id
    WHERE p.consumer = $1
    ORDER BY p.occurred_at, p.event_id
    LIMIT $2`,
);

const CONSUMED = sql<never, [consumer: string, eventIDs: string[]]>(`DELETE FROM outbox_pending WHERE consumer = $1 AND event_id = ANY($2::uuid[])`);

const TAKE_LOSSES = sql<OutboxLoss, [consumer: string]>(
  `DELETE FROM outbox_losses WHERE consumer = $1 RETURNING tenant_id AS "tenantID", events::int AS events`,
);

/**
 * Up to `$2` of the oldest events that occurred before `$1`, whoever has
 * consumed them: a consumer that is down never holds the outbox back. Their
 * pending rows (events a consumer had not taken) are counted per consumer
 * and recorded per consumer and tenant in `outbox_losses`, for the consumer
 * to take.
 */
const DELETE_EXPIRED = sql<{ deleted: number; unconsumed: Record<string, number> }, [cutoff: Date, batch: number]>(
  `WITH doomed AS (
          SELECT id, tenant_id FROM webhook_events WHERE occurred_at < $1 ORDER BY occurred_at LIMIT $2),
        missed AS (
          DELETE FROM outbox_pending p USING doomed d WHERE p.event_id = d.id RETURNING p.consumer, d.tenant_id),
        recorded AS (
          INSERT INTO outbox_losses (consumer, tenant_id, events)
          SELECT consumer, tenant_id, count(*) FROM missed GROUP BY consumer, tenant_id
          ON CONFLICT (consumer, tenant_id) DO UPDATE SET events = outbox_losses.events + EXCLUDED.events
          RETURNING 1),
        gone AS (
          DELETE FROM webhook_events WHERE id IN (SELECT id FROM doomed) RETURNING id)
   SELECT (SELECT count(*) FROM gone)::int AS deleted,
          COALESCE((SELECT jsonb_object_agg(consumer, n) FROM (SELECT consumer, count(*)::int AS n FROM missed GROUP BY consumer) m), '{}'::jsonb) AS unconsumed`,
);

/**
 * The platform's transactional outbox (`webhook_events`): every app appends
 * the events of a change in that change's transaction; each consumer
 * (OUTBOX_CONSUMERS) claims, in its own transactions, the events it has not
 * taken yet, from its own claim state (`outbox_pending`), oldest first, one
 * replica of it at a time. No consumer locks an event row, so one
 * consumer's work can neither hide nor reorder another's. The one writer of
 * these tables in code.
 */
@Injectable()
export class OutboxRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Appends in the caller's transaction (`runner` is its EntityManager): the event commits or rolls back with the change. */
  async append(runner: SqlRunner, scope: TenantScope, event: NewOutboxEvent): Promise<void> {
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
  async appendMany(runner: SqlRunner, scope: TenantScope, batch: NewOutboxEvents): Promise<void> {
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

  /**
   * Claims up to `batch` of `consumer`'s pending events, oldest first, in
   * `runner`'s transaction; nothing while another replica of the consumer
   * holds its claim. Mark them consumed in the same transaction.
   */
  async claim(runner: SqlRunner, consumer: OutboxConsumer, batch: number): Promise<OutboxEvent[]> {
    if (!(await this.lockConsumer(runner, consumer))) return [];
    return rows(runner, CLAIM, [consumer, batch]);
  }

  async markConsumed(runner: SqlRunner, consumer: OutboxConsumer, eventIDs: string[]): Promise<void> {
    if (eventIDs.length > 0) await run(runner, CONSUMED, [consumer, eventIDs]);
  }

  /**
   * The tenants whose events the retention sweep deleted before `consumer`
   * took them, taken (deleted) in `runner`'s transaction: call it under the
   * consumer's claim, after `claim` answered events or not.
   */
  async takeLosses(runner: SqlRunner, consumer: OutboxConsumer): Promise<OutboxLoss[]> {
    if (!(await this.lockConsumer(runner, consumer))) return [];
    return rows(runner, TAKE_LOSSES, [consumer]);
  }

  /** Deletes up to `batch` of the oldest events that occurred before `cutoff`, consumed or not, and says what the consumers missed. */
  async deleteExpired(cutoff: Date, batch: number): Promise<ExpiredOutboxEvents> {
    const swept = (await firstRow(this.dataSource, DELETE_EXPIRED, [cutoff, batch]))!;
    return { deleted: swept.deleted, unconsumed: swept.unconsumed as ExpiredOutboxEvents['unconsumed'] };
  }

  /** Takes the consumer's transaction-level lock (again, within one transaction, it is granted at once). */
  private async lockConsumer(runner: SqlRunner, consumer: OutboxConsumer): Promise<boolean> {
    return (await firstRow(runner, LOCK_CONSUMER, [consumer]))!.locked;
  }
}
