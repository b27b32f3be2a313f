import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '@platform/scheduling';
import { deleteInBatches, PeriodicSweep } from '@platform/database';
import { WebhookEventsRepository } from '@platform/webhooks';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WEBHOOK_DELIVERY_SETTINGS, WebhookDeliverySettings } from './webhook-delivery-settings';

const SWEEP_EVERY_MS = 60 * 60 * 1000;
const BATCH = 5_000;
const DAY_MS = 86_400_000;
/** Dispatched events are kept a day: their deliveries hold their own copy of the payload. */
const DISPATCHED_EVENT_RETENTION_MS = DAY_MS;

/**
 * Deletes deliveries (and, cascading, their attempts) created more than
 * WEBHOOK_DELIVERY_RETENTION_DAYS ago, and outbox events dispatched more than
 * a day ago: hourly, in bounded batches, on every replica, like the audit
 * log's sweep. A failed sweep is retried at the next hour.
 */
@Injectable()
export class WebhookDeliveryRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookDeliveryRetention.name);
  private readonly periodic = new PeriodicSweep(() => this.sweepQuietly());

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly events: WebhookEventsRepository,
    private readonly clock: Clock,
    @Inject(WEBHOOK_DELIVERY_SETTINGS) private readonly settings: WebhookDeliverySettings,
  ) {}

  onApplicationBootstrap(): void {
    this.periodic.start(SWEEP_EVERY_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.periodic.stop();
  }

  /** Deletes what expired; answers how many deliveries and events. */
  async sweep(): Promise<{ deliveries: number; events: number }> {
    const now = this.clock.now().getTime();
    const deliveryCutoff = new Date(now - this.settings.retentionDays * DAY_MS);
    const eventCutoff = new Date(now - DISPATCHED_EVENT_RETENTION_MS);
    return {
      deliveries: await deleteInBatches((limit) => this.deliveries.deleteCreatedBefore(deliveryCutoff, limit), BATCH),
      events: await deleteInBatches((limit) => this.events.deleteDispatchedBefore(eventCutoff, limit), BATCH),
    };
  }

  private async sweepQuietly(): Promise<void> {
    try {
      const deleted = await this.sweep();
      if (deleted.deliveries + deleted.events > 0) this.logger.log({ ...deleted, retentionDays: this.settings.retentionDays }, 'expired webhook deliveries and events deleted');
    } catch (error) {
      this.logger.warn({ err: error }, 'webhook retention sweep failed; retried in an hour');
    }
  }
}
