import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { firstRow, rows, run, sql, SqlRunner, TransactionalRepository } from '@platform/database';

/** An endpoint as the use cases show it: everything but its secrets. */
export interface StoredWebhookEndpoint {
  webhookEndpointID: string;
  url: string;
  description: string;
  eventTypes: string[];
  enabled: boolean;
  disabledAt: Date | null;
  disabledReason: string | null;
  failingSince: Date | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewWebhookEndpoint {
  /** Chosen before the insert: the sealed secret is bound to it. */
  id: string;
  url: string;
  description: string;
  eventTypes: string[];
  enabled: boolean;
  sealedSecret: string;
}

/** The fields an update changes; undefined leaves one as it is. */
export interface WebhookEndpointChanges {
  url?: string;
  description?: string;
  eventTypes?: string[];
  enabled?: boolean;
}

const COLUMNS = `id AS "webhookEndpointID", url, description, event_types AS "eventTypes", enabled,
                 disabled_at AS "disabledAt", disabled_reason AS "disabledReason", failing_since AS "failingSince",
                 previous_secret_expires_at AS "previousSecretExpiresAt", created_at AS "createdAt", updated_at AS "updatedAt"`;

/**
 * Serialises the creates of one tenant until their transaction ends. An
 * advisory lock rather than the tenant's row: `tenants` belongs to
 * core-tenants, and this lock needs no row of anyone's. The key is the
 * tenant's id hashed into the lock space with this purpose's prefix, so no
 * other lock of the platform shares it by design.
 */
const LOCK_TENANT_CREATES = sql<never, [tenantID: string]>(`SELECT pg_advisory_xact_lock(hashtextextended('webhook_endpoints:' || $1::text, 0))`);

/** Inserts only while the tenant has fewer than `$8` endpoints; no row when it is full. */
const INSERT_WITHIN_LIMIT = sql<StoredWebhookEndpoint, [id: string, tenantID: string, url: string, description: string, eventTypes: string[], enabled: boolean, sealedSecret: string, limit: number]>(
  `INSERT INTO webhook_endpoints (id, tenant_id, url, description, event_types, enabled, secret)
       SELECT $1::uuid, $2::uuid, $3::text, $4::text, $5::text[], $6::boolean, $7::text
        WHERE (SELECT count(*) FROM webhook_endpoints WHERE tenant_id = $2::uuid) < $8::int
       RETURNING ${COLUMNS}`,
);

const BY_ID = sql<StoredWebhookEndpoint, [tenantID: string, id: string]>(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE tenant_id = $1 AND id = $2`);

const COUNT = sql<{ count: string }, [tenantID: string]>('SELECT count(*) AS count FROM webhook_endpoints WHERE tenant_id = $1');

/** Oldest first, then id: the order of the (tenant_id, created_at, id) index, total and stable between pages. */
const PAGE = sql<StoredWebhookEndpoint, [tenantID: string, limit: number, offset: number]>(
  `SELECT ${COLUMNS} FROM webhook_endpoints WHERE tenant_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`,
);

/**
 * Changes the fields given (null leaves one as it is). Turning a disabled
 * endpoint back on starts it afresh: the platform's reason for disabling it
 * and the run of failures that led there are cleared. In SET, `enabled` is
 * the value before the update.
 */
const UPDATE = sql<StoredWebhookEndpoint, [tenantID: string, id: string, url: string | null, description: string | null, eventTypes: string[] | null, enabled: boolean | null]>(
  `UPDATE webhook_endpoints
          SET url = COALESCE($3::text, url),
              description = COALESCE($4::text, description),
              event_types = COALESCE($5::text[], event_types),
              enabled = COALESCE($6::boolean, enabled),
              disabled_at = CASE WHEN $6::boolean AND NOT enabled THEN NULL ELSE disabled_at END,
              disabled_reason = CASE WHEN $6::boolean AND NOT enabled THEN NULL ELSE disabled_reason END,
              failing_since = CASE WHEN $6::boolean AND NOT enabled THEN NULL ELSE failing_since END,
              updated_at = now()
        WHERE tenant_id = $1 AND id = $2
        RETURNING ${COLUMNS}`,
);

/**
 * The new sealed secret becomes the current one and the current one the
 * previous, signing until `$4`; with no `$4` (no grace) the previous is
 * dropped at once. A previous secret from an earlier rotation is replaced:
 * two secrets at most ever sign a delivery.
 */
const ROTATE_SECRET = sql<StoredWebhookEndpoint, [tenantID: string, id: string, sealedSecret: string, previousExpiresAt: Date | null]>(
  `UPDATE webhook_endpoints
          SET previous_secret = CASE WHEN $4::timestamptz IS NULL THEN NULL ELSE secret END,
              previous_secret_expires_at = $4::timestamptz,
              secret = $3::text,
              updated_at = now()
        WHERE tenant_id = $1 AND id = $2
        RETURNING ${COLUMNS}`,
);

/** Its deliveries and their attempts go with it (ON DELETE CASCADE). */
const DELETE = sql<{ url: string }, [tenantID: string, id: string]>('DELETE FROM webhook_endpoints WHERE tenant_id = $1 AND id = $2 RETURNING url');

/**
 * Endpoints subscribed to the event type that already hold `$3` pending
 * deliveries are disabled, with the reason, before an event is fanned out:
 * the fan-out then skips them (WEBHOOK_MAX_PENDING_PER_ENDPOINT).
 */
const DISABLE_OVERFULL = sql<{ id: string }, [tenantID: string, type: string, maxPending: number, reason: string]>(
  `UPDATE webhook_endpoints e
      SET enabled = false, disabled_at = clock_timestamp(), disabled_reason = $4, updated_at = clock_timestamp()
    WHERE e.tenant_id = $1 AND e.enabled AND $2 = ANY(e.event_types)
      AND (SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'pending' LIMIT $3) AS p) >= $3
  RETURNING e.id`,
);

/** A delivery succeeded: the endpoint's run of failures, if any, ends. */
const DELIVERY_SUCCEEDED = sql<never, [tenantID: string, id: string]>(
  `UPDATE webhook_endpoints SET failing_since = NULL WHERE tenant_id = $1 AND id = $2 AND failing_since IS NOT NULL`,
);

/** Starts (or continues) the endpoint's run of failures; says whether it has lasted long enough to disable the endpoint. */
const DELIVERY_FAILED = sql<{ failingSince: Date; overdue: boolean }, [tenantID: string, id: string, disableAfterHours: number]>(
  `UPDATE webhook_endpoints
      SET failing_since = COALESCE(failing_since, clock_timestamp())
    WHERE tenant_id = $1 AND id = $2
  RETURNING failing_since AS "failingSince", failing_since <= clock_timestamp() - make_interval(hours => $3) AS overdue`,
);

/** The platform disables the endpoint, saying why (an owner's `enabled: false` is UPDATE). */
const DISABLE = sql<never, [tenantID: string, id: string, reason: string]>(
  `UPDATE webhook_endpoints SET enabled = false, disabled_at = clock_timestamp(), disabled_reason = $3, updated_at = clock_timestamp()
    WHERE tenant_id = $1 AND id = $2 AND enabled`,
);

/**
 * A tenant's webhook endpoints (services-api owns the table), and the only
 * writer of their rows: the owners' changes, and the state the delivery
 * engine keeps in them (the run of failures, disabling). Writes take the
 * runner of the caller's transaction, which also records the audit event or
 * the delivery's outcome.
 */
@Injectable()
export class WebhookEndpointsRepository extends TransactionalRepository {
  /**
   * Inserts the endpoint unless the tenant already has `limit`; undefined
   * when it has. Race-free: the tenant's creates queue on the advisory lock,
   * and the count runs after the lock is granted, in its own statement,
   * whose READ COMMITTED snapshot sees every endpoint committed by the
   * creates before it. (Counting in the statement that takes the lock would
   * not do: a statement's snapshot is taken before it waits.)
   */
  async insertWithinLimit(runner: SqlRunner, scope: TenantScope, endpoint: NewWebhookEndpoint, limit: number): Promise<StoredWebhookEndpoint | undefined> {
    await run(runner, LOCK_TENANT_CREATES, [scope.tenantID]);
    return firstRow(runner, INSERT_WITHIN_LIMIT, [
      endpoint.id,
      scope.tenantID,
      endpoint.url,
      endpoint.description,
      endpoint.eventTypes,
      endpoint.enabled,
      endpoint.sealedSecret,
      limit,
    ]);
  }

  async byID(scope: TenantScope, webhookEndpointID: string): Promise<StoredWebhookEndpoint | undefined> {
    return firstRow(this.dataSource, BY_ID, [scope.tenantID, webhookEndpointID]);
  }

  async count(scope: TenantScope): Promise<number> {
    return Number((await firstRow(this.dataSource, COUNT, [scope.tenantID]))?.count ?? 0);
  }

  async page(scope: TenantScope, page: { offset: number; limit: number }): Promise<StoredWebhookEndpoint[]> {
    return rows(this.dataSource, PAGE, [scope.tenantID, page.limit, page.offset]);
  }

  /** The endpoint as changed; undefined when the tenant has no such endpoint. */
  async update(runner: SqlRunner, scope: TenantScope, webhookEndpointID: string, changes: WebhookEndpointChanges): Promise<StoredWebhookEndpoint | undefined> {
    return firstRow(runner, UPDATE, [
      scope.tenantID,
      webhookEndpointID,
      changes.url ?? null,
      changes.description ?? null,
      changes.eventTypes ?? null,
      changes.enabled ?? null,
    ]);
  }

  async rotateSecret(
    runner: SqlRunner,
    scope: TenantScope,
    webhookEndpointID: string,
    sealedSecret: string,
    previousExpiresAt: Date | null,
  ): Promise<StoredWebhookEndpoint | undefined> {
    return firstRow(runner, ROTATE_SECRET, [scope.tenantID, webhookEndpointID, sealedSecret, previousExpiresAt]);
  }

  /** Disables the tenant's endpoints subscribed to `eventType` that hold `maxPending` pending deliveries; answers their ids. */
  async disableOverfull(runner: SqlRunner, scope: TenantScope, eventType: string, maxPending: number, reason: string): Promise<string[]> {
    return (await rows(runner, DISABLE_OVERFULL, [scope.tenantID, eventType, maxPending, reason])).map((row) => row.id);
  }

  async deliverySucceeded(runner: SqlRunner, scope: TenantScope, webhookEndpointID: string): Promise<void> {
    await run(runner, DELIVERY_SUCCEEDED, [scope.tenantID, webhookEndpointID]);
  }

  /** Since when the endpoint has been failing, and whether for `disableAfterHours` or longer. */
  async deliveryFailed(runner: SqlRunner, scope: TenantScope, webhookEndpointID: string, disableAfterHours: number): Promise<{ failingSince: Date; overdue: boolean } | undefined> {
    return firstRow(runner, DELIVERY_FAILED, [scope.tenantID, webhookEndpointID, disableAfterHours]);
  }

  async disable(runner: SqlRunner, scope: TenantScope, webhookEndpointID: string, reason: string): Promise<void> {
    await run(runner, DISABLE, [scope.tenantID, webhookEndpointID, reason]);
  }

  /** The deleted endpoint's URL; undefined when the tenant had no such endpoint. */
  async delete(runner: SqlRunner, scope: TenantScope, webhookEndpointID: string): Promise<{ url: string } | undefined> {
    return firstRow(runner, DELETE, [scope.tenantID, webhookEndpointID]);
  }
}
