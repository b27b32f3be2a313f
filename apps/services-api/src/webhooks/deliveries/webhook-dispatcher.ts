import { Inject, Injectable, Logger } from '@nestjs/common';
import { DueWorkLoop } from '@platform/app-foundation';
import { UndispatchedWebhookEvent, WebhookEventsRepository } from '@platform/webhooks';
import { QueuedDelivery, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { deliveryJob, WebhookDeliveryWorker } from './webhook-delivery.worker';
import { leaseSeconds, WEBHOOK_DELIVERY_SETTINGS, WebhookDeliverySettings } from './webhook-delivery-settings';

/** Events fanned out per transaction. */
const BATCH = 100;
/** Stranded deliveries queued again per look. */
const STRANDED_BATCH = 100;
/** Rounds between two looks for stranded deliveries. */
const ROUNDS_PER_STRANDED_LOOK = 10;

/**
 * Fans the webhook outbox (`webhook_events`, appended by every app in the
 * change's transaction) out into deliveries: in one transaction per batch,
 * oldest events first, one delivery per enabled endpoint of the tenant
 * subscribed to the event's type, a job for each, and the events marked
 * dispatched. Replicas share the outbox through the claim's SKIP LOCKED; a
 * crash before the commit leaves the batch undispatched, and a fan-out
 * repeated adds nothing (a delivery is unique per endpoint and event).
 *
 * An endpoint already holding WEBHOOK_MAX_PENDING_PER_ENDPOINT pending
 * deliveries is skipped and disabled, with the reason, rather than let a dead
 * receiver's backlog grow without bound.
 *
 * Every few rounds it also queues again the deliveries nothing attempts
 * although they are due (WebhookDeliveriesRepository STRANDED): a worker
 * died mid-attempt, or their endpoint was enabled again.
 */
@Injectable()
export class WebhookDispatcher extends DueWorkLoop {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private roundsSinceStrandedLook = ROUNDS_PER_STRANDED_LOOK;

  constructor(
    private readonly events: WebhookEventsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly worker: WebhookDeliveryWorker,
    @Inject(WEBHOOK_DELIVERY_SETTINGS) private readonly settings: WebhookDeliverySettings,
  ) {
    super(settings.dispatchPollMs, 'webhook dispatch');
  }

  protected async attemptDue(): Promise<boolean> {
    const full = await this.dispatchBatch();
    if (!full && ++this.roundsSinceStrandedLook >= ROUNDS_PER_STRANDED_LOOK) {
      this.roundsSinceStrandedLook = 0;
      await this.requeueStranded();
    }
    return full;
  }

  /** Fans out one batch; true when it was full (more may be waiting). */
  async dispatchBatch(): Promise<boolean> {
    const claimed = await this.deliveries.transaction(async (runner) => {
      const events = await this.events.claimUndispatched(runner, BATCH);
      const queued: QueuedDelivery[] = [];
      for (const event of events) {
        const disabled = await this.deliveries.disableOverfull(runner, event.tenant_id, event.type, this.settings.maxPendingPerEndpoint, overfullReason(this.settings, event));
        if (disabled.length > 0) this.logger.warn({ endpoints: disabled, event: event.id }, 'webhook endpoints disabled: too many deliveries pending');
        queued.push(
          ...(await this.deliveries.fanOut(runner, {
            tenantID: event.tenant_id,
            eventID: event.id,
            type: event.type,
            orderingKey: event.ordering_key,
            payload: { type: event.type, timestamp: event.occurred_at.toISOString(), data: event.data },
            // The exact instant, not the Date's milliseconds: it orders the deliveries of one subject.
            occurredAt: event.occurred_at_exact,
            headers: event.headers,
          })),
        );
      }
      await this.worker.enqueueWithin(runner, queued.map((delivery) => deliveryJob(delivery)));
      await this.events.markDispatched(runner, events.map((event) => event.id));
      return { events: events.length, deliveries: queued.length };
    });
    if (claimed.deliveries > 0) this.worker.wakeUp();
    return claimed.events === BATCH;
  }

  /** Queues again the due deliveries nothing attempts; answers how many. */
  async requeueStranded(): Promise<number> {
    const stranded = await this.deliveries.stranded(leaseSeconds(this.settings), STRANDED_BATCH);
    if (stranded.length === 0) return 0;
    await this.deliveries.transaction((runner) => this.worker.enqueueWithin(runner, stranded.map((delivery) => deliveryJob(delivery))));
    this.worker.wakeUp();
    return stranded.length;
  }
}

function overfullReason(settings: WebhookDeliverySettings, event: UndispatchedWebhookEvent): string {
  return `${settings.maxPendingPerEndpoint} deliveries pending (WEBHOOK_MAX_PENDING_PER_ENDPOINT): event ${event.id} (${event.type}) and later ones were not queued`;
}
