import type { Queryable } from './fixtures';

/** A `webhook_events` row as the end-to-end specs compare it. */
export interface RecordedWebhookEvent {
  type: string;
  version: number;
  orderingKey: string | null;
  data: Record<string, unknown>;
  emittedBy: string;
}

/**
 * The webhook outbox as the emitting apps left it, read straight from the
 * database: what a change emitted, before any delivery (there is no API
 * that lists events).
 */
export class WebhookEventFixtures {
  constructor(private readonly dataSource: Queryable) {}

  /** The tenant's events, oldest first; only those of `type` when given. */
  async eventsOf(tenantID: string, type?: string): Promise<RecordedWebhookEvent[]> {
    const rows: RecordedWebhookEvent[] = await this.dataSource.query(
      `SELECT type, version, ordering_key AS "orderingKey", data, emitted_by AS "emittedBy"
         FROM webhook_events WHERE tenant_id = $1 AND ($2::text IS NULL OR type = $2) ORDER BY occurred_at, id`,
      [tenantID, type ?? null],
    );
    return rows;
  }
}
