import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { firstRow, rows, sql, SqlRunner, TransactionalRepository, WebhookDeliveryStatus } from '@platform/database';
import type { PropagatedHeaders } from '@platform/observability';

/** A delivery as its log shows it. */
export interface LoggedDelivery {
  webhookDeliveryID: string;
  eventID: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  attemptCount: number;
  lastStatusCode: number | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  completedAt: Date | null;
}

export interface LoggedAttempt {
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  succeeded: boolean;
}

const COLUMNS = `id AS "webhookDeliveryID", event_id AS "eventID", event_type AS "eventType", status, attempt_count AS "attemptCount",
                 last_status_code AS "lastStatusCode", next_attempt_at AS "nextAttemptAt", created_at AS "createdAt", completed_at AS "completedAt"`;

const COUNT = sql<{ total: number }, [tenantID: string, endpointID: string, status: string | null]>(
  `SELECT count(*)::int AS total FROM webhook_deliveries WHERE tenant_id = $1 AND endpoint_id = $2 AND ($3::text IS NULL OR status = $3)`,
);

/** Newest first, then id: the order of the (endpoint_id, created_at DESC, id DESC) index, total and stable between pages. */
const PAGE = sql<LoggedDelivery, [tenantID: string, endpointID: string, status: string | null, limit: number, offset: number]>(
  `SELECT ${COLUMNS} FROM webhook_deliveries
    WHERE tenant_id = $1 AND endpoint_id = $2 AND ($3::text IS NULL OR status = $3)
    ORDER BY created_at DESC, id DESC
    LIMIT $4 OFFSET $5`,
);

const BY_ID = sql<LoggedDelivery, [tenantID: string, endpointID: string, deliveryID: string]>(
  `SELECT ${COLUMNS} FROM webhook_deliveries WHERE tenant_id = $1 AND endpoint_id = $2 AND id = $3`,
);

const BY_ID_FOR_UPDATE = sql<LoggedDelivery, [tenantID: string, endpointID: string, deliveryID: string]>(
  `SELECT ${COLUMNS} FROM webhook_deliveries WHERE tenant_id = $1 AND endpoint_id = $2 AND id = $3 FOR UPDATE`,
);

const ATTEMPTS = sql<LoggedAttempt, [tenantID: string, deliveryID: string]>(
  `SELECT a.attempted_at AS "attemptedAt", a.status_code AS "statusCode", a.duration_ms AS "durationMs", a.error, a.succeeded
     FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
    WHERE d.tenant_id = $1 AND a.delivery_id = $2
    ORDER BY a.attempted_at, a.id`,
);

/** Due now, out of the retry schedule's wait; a failed delivery gets one more attempt (then fails again if it fails). */
const RESEND = sql<LoggedDelivery, [tenantID: string, deliveryID: string]>(
  `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = clock_timestamp(), completed_at = NULL
    WHERE tenant_id = $1 AND id = $2
  RETURNING ${COLUMNS}`,
);

/** A `webhook.test` delivery to one endpoint, due at once; no outbox event (no other endpoint gets it). */
const INSERT_TEST_DELIVERY = sql<LoggedDelivery, [tenantID: string, endpointID: string, eventID: string, payload: string, headers: string | null]>(
  `INSERT INTO webhook_deliveries (tenant_id, endpoint_id, event_id, event_type, payload, occurred_at, headers, next_attempt_at)
   VALUES ($1, $2, $3, 'webhook.test', $4::jsonb, clock_timestamp(), $5::jsonb, clock_timestamp())
   RETURNING ${COLUMNS}`,
);

/**
 * The delivery log's side of `webhook_deliveries` and
 * `webhook_delivery_attempts`: what owners read, and the two writes they may
 * ask for (a re-send, a test event), each making a delivery due now for the
 * delivery engine to claim.
 */
@Injectable()
export class WebhookDeliveryLogRepository extends TransactionalRepository {
  async count(scope: TenantScope, endpointID: string, status: WebhookDeliveryStatus | undefined): Promise<number> {
    return (await firstRow(this.dataSource, COUNT, [scope.tenantID, endpointID, status ?? null]))!.total;
  }

  async page(scope: TenantScope, endpointID: string, status: WebhookDeliveryStatus | undefined, page: { limit: number; offset: number }): Promise<LoggedDelivery[]> {
    return rows(this.dataSource, PAGE, [scope.tenantID, endpointID, status ?? null, page.limit, page.offset]);
  }

  async byID(scope: TenantScope, endpointID: string, deliveryID: string): Promise<LoggedDelivery | undefined> {
    return firstRow(this.dataSource, BY_ID, [scope.tenantID, endpointID, deliveryID]);
  }

  /** The delivery, locked until the caller's transaction ends. */
  async byIDForUpdate(runner: SqlRunner, scope: TenantScope, endpointID: string, deliveryID: string): Promise<LoggedDelivery | undefined> {
    return firstRow(runner, BY_ID_FOR_UPDATE, [scope.tenantID, endpointID, deliveryID]);
  }

  async attempts(scope: TenantScope, deliveryID: string): Promise<LoggedAttempt[]> {
    return rows(this.dataSource, ATTEMPTS, [scope.tenantID, deliveryID]);
  }

  async resend(runner: SqlRunner, scope: TenantScope, deliveryID: string): Promise<LoggedDelivery> {
    return (await firstRow(runner, RESEND, [scope.tenantID, deliveryID]))!;
  }

  async insertTestDelivery(scope: TenantScope, endpointID: string, eventID: string, payload: object, headers: PropagatedHeaders | null): Promise<LoggedDelivery> {
    return (await firstRow(this.dataSource, INSERT_TEST_DELIVERY, [scope.tenantID, endpointID, eventID, JSON.stringify(payload), headers ? JSON.stringify(headers) : null]))!;
  }
}
