import { Inject, Injectable, Logger } from '@nestjs/common';
import { trustedTenantScope } from '@platform/auth';
import { UndispatchedWebhookEvent, WebhookEventsRepository } from '@platform/webhooks';
import { WebhookEndpointsRepository } from '../endpoints/webhook-endpoints.repository';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WEBHOOK_DELIVERY_SETTINGS, WebhookDeliverySettings } from './webhook-delivery-settings';

/** Events fanned out per transaction. */
const BATCH = 100;

/**
 * Fans the webhook outbox (`webhook_events`, appended by every app in the
 * change's transaction) out into deliveries: in one transaction per batch,
 * oldest events first, one delivery per enabled endpoint of the tenant
 * subscribed to the event's type, due at once, and the events marked
 * dispatched. Replicas share the outbox through the claim's SKIP LOCKED; a
 * crash before the commit leaves the batch undispatched, and a fan-out
 * repeated adds nothing (a delivery is unique per endpoint and event).
 *
 * An endpoint already holding WEBHOOK_MAX_PENDING_PER_ENDPOINT pending
 * deliveries is skipped and disabled, with the reason, rather than let a dead
 * receiver's backlog grow without bound.
 */
@Injectable()
export class WebhookFanOut {
  private readonly logger = new Logger(WebhookFanOut.name);

  constructor(
    private readonly events: WebhookEventsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    @Inject(WEBHOOK_DELIVERY_SETTINGS) private readonly settings: WebhookDeliverySettings,
  ) {}

  /** Fans out one batch: whether it was full (more may be waiting), and how many deliveries it made. */
  async batch(): Promise<{ full: boolean; deliveries: number }> {
    const fannedOut = await this.deliveries.transaction(async (runner) => {
      const events = await this.events.claimUndispatched(runner, BATCH);
      let deliveries = 0;
      for (const event of events) {
        // The event was appended by the app that made the change, for its tenant: the scope comes from the outbox row, not a request.
        const scope = trustedTenantScope(event.tenantID);
        const disabled = await this.endpoints.disableOverfull(runner, scope, event.type, this.settings.maxPendingPerEndpoint, overfullReason(this.settings, event));
        if (disabled.length > 0) this.logger.warn({ endpoints: disabled, event: event.id }, 'webhook endpoints disabled: too many deliveries pending');
        deliveries += await this.deliveries.fanOut(runner, {
          tenantID: event.tenantID,
          eventID: event.id,
          type: event.type,
          orderingKey: event.orderingKey,
          payload: { type: event.type, timestamp: event.occurredAt.toISOString(), data: event.data },
          // The exact instant, not the Date's milliseconds: it orders the deliveries of one subject.
          occurredAt: event.occurredAtExact,
          headers: event.headers,
        });
      }
      await this.events.markDispatched(runner, events.map((event) => event.id));
      return { events: events.length, deliveries };
    });
    return { full: fannedOut.events === BATCH, deliveries: fannedOut.deliveries };
  }
}

function overfullReason(settings: WebhookDeliverySettings, event: UndispatchedWebhookEvent): string {
  return `${settings.maxPendingPerEndpoint} deliveries pending (WEBHOOK_MAX_PENDING_PER_ENDPOINT): event ${event.id} (${event.type}) and later ones were not queued`;
}
