import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { AuditActorKind, firstRow, rows, run, sql, SqlRunner } from '@platform/database';
import { DataSource } from 'typeorm';
import type { AuditAction, AuditSummaryValue } from './audit-actions';

/** A row as it is appended: the tenant comes from the scope, the rest from the action. */
export interface NewAuditEvent {
  action: AuditAction;
  actorKind: AuditActorKind;
  actorID: string;
  requestID: string | null;
  targetKind: string;
  targetID: string;
  summary: Record<string, AuditSummaryValue>;
  recordedBy: string;
}

/** A stored event as callers see it: the columns under their domain names. */
export interface StoredAuditEvent {
  id: string;
  tenantID: string;
  occurredAt: Date;
  action: AuditAction;
  actorKind: AuditActorKind;
  actorID: string;
  requestID: string | null;
  targetKind: string;
  targetID: string;
  summary: Record<string, AuditSummaryValue>;
}

/** The filters of the list; each is optional. */
export interface AuditEventFilter {
  action?: AuditAction;
  /** Canonical (lower-cased by the request rule, IsCanonicalUuid). */
  actorID?: string;
  /** Inclusive lower bound of occurred_at. */
  from?: Date;
  /** Exclusive upper bound of occurred_at. */
  to?: Date;
}

const APPEND = sql<never, [string, AuditAction, AuditActorKind, string, string | null, string, string, string, string]>(
  `INSERT INTO audit_events (tenant_id, action, actor_kind, actor_id, request_id, target_kind, target_id, summary, recorded_by)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9)`,
);

/**
 * `$2::text IS NULL OR ...` keeps one statement for every combination of
 * filters; the planner still walks (tenant_id, action|actor_id, occurred_at
 * DESC, id DESC) when a filter is given, (tenant_id, occurred_at DESC, id DESC)
 * otherwise.
 */
const FILTER = `tenant_id = $1
   AND ($2::text IS NULL OR action = $2)
   AND ($3::uuid IS NULL OR actor_id = $3)
   AND ($4::timestamptz IS NULL OR occurred_at >= $4)
   AND ($5::timestamptz IS NULL OR occurred_at < $5)`;

type FilterParams = [tenantID: string, action: string | null, actorID: string | null, from: Date | null, to: Date | null];

const COUNT = sql<{ count: string }, FilterParams>(`SELECT count(*) AS count FROM audit_events WHERE ${FILTER}`);

const PAGE = sql<StoredAuditEvent, [...FilterParams, limit: number, offset: number]>(
  `SELECT id, tenant_id AS "tenantID", occurred_at AS "occurredAt", action, actor_kind AS "actorKind", actor_id AS "actorID",
          request_id AS "requestID", target_kind AS "targetKind", target_id AS "targetID", summary
     FROM audit_events
    WHERE ${FILTER}
    ORDER BY occurred_at DESC, id DESC
    LIMIT $6 OFFSET $7`,
);

/** Oldest first, a bounded batch at a time, so a sweep never holds many row locks at once. */
const DELETE_OLDER_THAN = sql<never, [cutoff: Date, batch: number]>(
  `DELETE FROM audit_events
    WHERE id IN (SELECT id FROM audit_events WHERE occurred_at < $1 ORDER BY occurred_at LIMIT $2)`,
);

@Injectable()
export class AuditEventsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Appends in the caller's transaction (`runner` is its EntityManager): the record commits or rolls back with the action. */
  async append(runner: SqlRunner, scope: TenantScope, event: NewAuditEvent): Promise<void> {
    await run(runner, APPEND, [
      scope.tenantID,
      event.action,
      event.actorKind,
      event.actorID,
      event.requestID,
      event.targetKind,
      event.targetID,
      JSON.stringify(event.summary),
      event.recordedBy,
    ]);
  }

  async count(scope: TenantScope, filter: AuditEventFilter): Promise<number> {
    const found = await firstRow(this.dataSource, COUNT, filterParams(scope, filter));
    return Number(found?.count ?? 0);
  }

  /** Newest first; `id` orders events of the same instant, so pages are stable. */
  async page(scope: TenantScope, filter: AuditEventFilter, limit: number, offset: number): Promise<StoredAuditEvent[]> {
    return rows(this.dataSource, PAGE, [...filterParams(scope, filter), limit, offset]);
  }

  /** Deletes up to `batch` events older than `cutoff`; returns how many it deleted. */
  async deleteOlderThan(cutoff: Date, batch: number): Promise<number> {
    return (await run(this.dataSource, DELETE_OLDER_THAN, [cutoff, batch])).count;
  }
}

function filterParams(scope: TenantScope, filter: AuditEventFilter): FilterParams {
  return [scope.tenantID, filter.action ?? null, filter.actorID ?? null, filter.from ?? null, filter.to ?? null];
}
