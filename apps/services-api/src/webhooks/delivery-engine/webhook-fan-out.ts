import { Inject, Injectable, Logger } from '@nestjs/common';
import { trustedTenantScope } from '@platform/auth';
import { OutboxEvent, OutboxRepository } from '@platform/outbox';
import { WebhookEndpointsRepository } from '../endpoints/webhook-endpoints.repository';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WEBHOOK_DELIVERY_SETTINGS, WebhookDeliverySettings } from './webhook-delivery-settings';

/** Events fanned out per transaction. */
const BATCH = 100;

/**
 * The outbox's `webhooks` consumer (libs/outbox; events appended by every
 * app in the change's transaction): fans events out into deliveries, in one
 * transaction per batch, oldest events first, one delivery per enabled
 * endpoint of the tenant subscribed to the event's type, due at once, and
 * the events marked consumed. The claim's advisory lock lets one replica
 * fan out at a time: the deliveries of a subject are therefore created in
 * the order its events committed, and never a later event's before an
 * earlier one's is (the engine holds a delivery back only behind an older
 * pending delivery of its subject that exists, so the order of creation is
 * what keeps them in order). The claim reads the dispatcher's own pending
 * rows and locks no event row: the real-time relay's work never makes it
 * skip one. A crash before the commit leaves the batch pending, and a
 * fan-out repeated adds nothing (a delivery is unique per endpoint and
 * event).
 *
 * An endpoint already holding WEBHOOK_MAX_PENDING_PER_ENDPOINT pending
 * deliveries is skipped and disabled, with the reason, rather than let a dead
 * receiver's backlog grow without bound.
 */
@Injectable()
export class WebhookFanOut {
  private readonly logger = new Logger(WebhookFanOut.name);

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    @Inject(WEBHOOK_DELIVERY_SETTINGS) private readonly settings: WebhookDeliverySettings,
  ) {}

  /** Fans out one batch: whether it was full (more may be waiting), and how many deliveries it made. */
  async batch(): Promise<{ full: boolean; deliveries: number }> {
    const fannedOut = await this.deliveries.transaction(async (runner) => {
      const events = await this.outbox.claim(runner, 'webhooks', BATCH);
      for (const loss of await this.outbox.takeLosses(runner, 'webhooks')) {
        this.logger.warn({ tenantID: loss.tenantID, events: loss.events }, 'outbox events expired before the webhook dispatcher took them: their deliveries were never made');
      }
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
      await this.outbox.markConsumed(runner, 'webhooks', events.map((event) => event.id));
      return { events: events.length, deliveries };
    });
    return { full: fannedOut.events === BATCH, deliveries: fannedOut.deliveries };
  }
}

function overfullReason(settings: WebhookDeliverySettings, event: OutboxEvent): string {
  return `${settings.maxPendingPerEndpoint} deliveries pending (WEBHOOK_MAX_PENDING_PER_ENDPOINT): event ${event.id} (${event.type}) and later ones were not queued`;
}
