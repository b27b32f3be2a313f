import { Inject, Injectable, Logger } from '@nestjs/common';
import { DueWorkLoop } from '@platform/scheduling';
import { OutboxEvent, OutboxRepository } from '@platform/outbox';
import { DataSource } from 'typeorm';
import { isRealtimeEventType, StreamedEvent } from '../streams/streamed-event';
import { TenantStreams } from '../streams/tenant-streams';

export const RELAY_POLL_MS = Symbol('RELAY_POLL_MS');

/** Events moved per transaction. */
const BATCH = 500;

/**
 * The outbox's `realtime` consumer (libs/outbox): moves the events appended
 * in each change's transaction into the tenants' Redis streams. In one
 * PostgreSQL transaction per batch it claims its own pending events (oldest
 * first), appends the conversation events to their tenant's stream and marks
 * the batch consumed. Every replica runs it; the claim's transaction-level
 * advisory lock lets one at a time work, so the streams receive events in a
 * single order.
 *
 * Order within a session is the commit order: a change to a session locks
 * the session's row, so a later change of the same session inserts its event
 * only after the earlier one committed (and `occurred_at` is taken at the
 * insert, clock_timestamp()); the relay sees its pending rows only once
 * committed, takes them oldest first, and they are its own: the webhook
 * dispatcher claims from its own rows and locks none of the relay's, so
 * nothing it does can make the relay skip an event and take a later one.
 *
 * Events the outbox's retention deleted before the relay took them (it was
 * down past the window) are lost to the streams: the relay begins a new
 * epoch for each tenant concerned, and every socket of that tenant is told
 * to resync (docs/realtime.md, Resume) rather than left with a silent gap.
 *
 * A failure half-way (Redis or PostgreSQL away) rolls the marks back: the
 * batch is retried at the next round, and entries appended before the
 * failure are appended again. Delivery is therefore at least once; a
 * repeated event has the same `event.id`, by which clients ignore it
 * (docs/realtime.md).
 */
@Injectable()
export class OutboxRelay extends DueWorkLoop {
  private readonly logger = new Logger(OutboxRelay.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxRepository,
    private readonly streams: TenantStreams,
    @Inject(RELAY_POLL_MS) pollMs: number,
  ) {
    super(pollMs, 'real-time relay');
  }

  protected async attemptDue(): Promise<boolean> {
    return (await this.relayBatch()) === BATCH;
  }

  /** Relays one batch; answers how many outbox events it marked consumed. */
  async relayBatch(): Promise<number> {
    return this.dataSource.transaction(async (runner) => {
      const claimed = await this.outbox.claim(runner, 'realtime', BATCH);
      for (const loss of await this.outbox.takeLosses(runner, 'realtime')) {
        this.logger.warn({ tenantID: loss.tenantID, events: loss.events }, 'outbox events expired before the relay streamed them: the tenant\'s sockets resync');
        await this.streams.beginEpoch(loss.tenantID);
      }
      for (const [tenantID, events] of byTenant(claimed)) await this.streams.append(tenantID, events);
      await this.outbox.markConsumed(runner, 'realtime', claimed.map((event) => event.id));
      return claimed.length;
    });
  }
}

/** The conversation events of a batch, grouped by tenant, each group in the batch's order. */
function byTenant(claimed: OutboxEvent[]): Map<string, StreamedEvent[]> {
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
