import { Inject, Injectable } from '@nestjs/common';
import { DueWorkLoop } from '@platform/scheduling';
import { UnstreamedWebhookEvent, WebhookEventsRepository } from '@platform/webhooks';
import { DataSource } from 'typeorm';
import { isRealtimeEventType, StreamedEvent } from '../streams/streamed-event';
import { TenantStreams } from '../streams/tenant-streams';

export const RELAY_POLL_MS = Symbol('RELAY_POLL_MS');

/** Events moved per transaction. */
const BATCH = 500;
/** The advisory lock that lets one relay run at a time across replicas (webhook-events.repository.ts). */
const RELAY_LOCK = 'realtime-gateway outbox relay';

/**
 * Moves the outbox (`webhook_events`, appended in each change's transaction)
 * into the tenants' Redis streams: in one PostgreSQL transaction per batch,
 * oldest first, it claims unstreamed events, appends the conversation events
 * to their tenant's stream and marks the whole batch streamed. Every replica
 * runs it; the claim's transaction-level advisory lock lets one at a time
 * work, so the streams receive events in a single order.
 *
 * Order within a session is the commit order: a change to a session locks
 * the session's row, so a later change of the same session inserts its event
 * only after the earlier one committed (and `occurred_at` is taken at the
 * insert, clock_timestamp()); the relay sees rows only once committed, and
 * takes them oldest first, so of two events of one session the one that
 * committed first is appended first, by the one relay working.
 *
 * A failure half-way (Redis or PostgreSQL away) rolls the marks back: the
 * batch is retried at the next round, and entries appended before the
 * failure are appended again. Delivery is therefore at least once; a
 * repeated event has the same `event.id`, by which clients ignore it
 * (docs/realtime.md).
 */
@Injectable()
export class OutboxRelay extends DueWorkLoop {
  constructor(
    private readonly dataSource: DataSource,
    private readonly events: WebhookEventsRepository,
    private readonly streams: TenantStreams,
    @Inject(RELAY_POLL_MS) pollMs: number,
  ) {
    super(pollMs, 'real-time relay');
  }

  protected async attemptDue(): Promise<boolean> {
    return (await this.relayBatch()) === BATCH;
  }

  /** Relays one batch; answers how many outbox events it marked streamed. */
  async relayBatch(): Promise<number> {
    return this.dataSource.transaction(async (runner) => {
      const claimed = await this.events.claimUnstreamed(runner, RELAY_LOCK, BATCH);
      for (const [tenantID, events] of byTenant(claimed)) await this.streams.append(tenantID, events);
      await this.events.markStreamed(runner, claimed.map((event) => event.id));
      return claimed.length;
    });
  }
}

/** The conversation events of a batch, grouped by tenant, each group in the batch's order. */
function byTenant(claimed: UnstreamedWebhookEvent[]): Map<string, StreamedEvent[]> {
  const groups = new Map<string, StreamedEvent[]>();
  for (const row of claimed) {
    if (!isRealtimeEventType(row.type)) continue;
    const event: StreamedEvent = { id: row.id, type: row.type, occurredAt: row.occurredAtExact, subject: row.orderingKey, data: row.data };
    const group = groups.get(row.tenantID);
    if (group) group.push(event);
    else groups.set(row.tenantID, [event]);
  }
  return groups;
}
