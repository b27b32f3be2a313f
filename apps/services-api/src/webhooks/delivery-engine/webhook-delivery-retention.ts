import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '@platform/scheduling';
import { deleteInBatches, PeriodicSweep } from '@platform/database';
import { OUTBOX_CONSUMERS, OutboxConsumer, OutboxRepository } from '@platform/outbox';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDeliveryMetrics } from './webhook-delivery-metrics';
import { WEBHOOK_DELIVERY_SETTINGS, WebhookDeliverySettings } from './webhook-delivery-settings';

const SWEEP_EVERY_MS = 60 * 60 * 1000;
const BATCH = 5_000;
const DAY_MS = 86_400_000;
/** Outbox events are kept a day: their deliveries hold their own copy of the payload, and the streams keep far less. */
export const OUTBOX_EVENT_RETENTION_MS = DAY_MS;

/** What one sweep deleted: deliveries, outbox events, and per consumer the events it had not taken. */
export interface SweepResult {
  deliveries: number;
  events: number;
  unconsumed: Record<OutboxConsumer, number>;
}

/**
 * Deletes deliveries (and, cascading, their attempts) created more than
 * WEBHOOK_DELIVERY_RETENTION_DAYS ago, and outbox events that occurred more
 * than a day ago: hourly, in bounded batches, on every replica, like the
 * audit log's sweep. A failed sweep is retried at the next hour.
 *
 * The outbox's window holds for every consumer: one that is down (the
 * gateways not deployed, the dispatcher stopped) never keeps events past it.
 * The events it had not taken are reported instead, a warning and
 * `platform_outbox_events_expired_unconsumed_total` (docs/metrics.md), and
 * the consumer learns of them from `outbox_losses` (the relay makes the
 * tenants' sockets resync).
 */
@Injectable()
export class WebhookDeliveryRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookDeliveryRetention.name);
  private readonly periodic = new PeriodicSweep(() => this.sweepQuietly());

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly outbox: OutboxRepository,
    private readonly metrics: WebhookDeliveryMetrics,
    private readonly clock: Clock,
    @Inject(WEBHOOK_DELIVERY_SETTINGS) private readonly settings: WebhookDeliverySettings,
  ) {}

  onApplicationBootstrap(): void {
    this.periodic.start(SWEEP_EVERY_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.periodic.stop();
  }

  /** Deletes what expired; answers how many deliveries and events, and what each consumer missed. */
  async sweep(): Promise<SweepResult> {
    const now = this.clock.now().getTime();
    const deliveryCutoff = new Date(now - this.settings.retentionDays * DAY_MS);
    const deliveries = await deleteInBatches((limit) => this.deliveries.deleteCreatedBefore(deliveryCutoff, limit), BATCH);
    const outbox = await this.sweepOutbox(new Date(now - OUTBOX_EVENT_RETENTION_MS));
    return { deliveries, ...outbox };
  }

  private async sweepOutbox(cutoff: Date): Promise<Omit<SweepResult, 'deliveries'>> {
    const unconsumed = Object.fromEntries(OUTBOX_CONSUMERS.map((consumer) => [consumer, 0])) as Record<OutboxConsumer, number>;
    let events = 0;
    for (;;) {
      const batch = await this.outbox.deleteExpired(cutoff, BATCH);
      events += batch.deleted;
      for (const consumer of OUTBOX_CONSUMERS) unconsumed[consumer] += batch.unconsumed[consumer] ?? 0;
      if (batch.deleted < BATCH) break;
    }
    for (const consumer of OUTBOX_CONSUMERS) {
      if (unconsumed[consumer] === 0) continue;
      this.metrics.outboxEventsExpiredUnconsumed(consumer, unconsumed[consumer]);
      this.logger.warn({ consumer, events: unconsumed[consumer], cutoff }, 'outbox consumer behind the retention window: events it had not taken were deleted');
    }
    return { events, unconsumed };
  }

  private async sweepQuietly(): Promise<void> {
    try {
      const { deliveries, events } = await this.sweep();
      if (deliveries + events > 0) this.logger.log({ deliveries, events, retentionDays: this.settings.retentionDays }, 'expired webhook deliveries and outbox events deleted');
    } catch (error) {
      this.logger.warn({ err: error }, 'webhook retention sweep failed; retried in an hour');
    }
  }
}
