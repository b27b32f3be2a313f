import { Injectable } from '@nestjs/common';
import { Clock } from '@platform/scheduling';
import { AppException } from '@platform/errors';
import type { IdempotencyKeyClaim } from '@platform/idempotency';
import { propagatedHeaders } from '@platform/observability';
import { randomUUID } from 'node:crypto';
import { WebhookDeliveryEngine } from '../delivery-engine/webhook-delivery-engine';
import type { WebhookDeliveryDto } from './webhook-delivery.dto';
import { WebhookDeliveryLogRepository } from './webhook-delivery-log.repository';
import { deliveryView } from './webhook-delivery-views';
import { EndpointOfTenant, WebhookEndpointOfTenant } from './webhook-endpoint-of-tenant';

export interface SendWebhookTestEventCommand extends EndpointOfTenant {
  idempotency: IdempotencyKeyClaim;
}

/**
 * Sends a `webhook.test` event to one endpoint (none other gets it), as a
 * delivery like any other: signed, retried, in the log. 409 1968 while the
 * endpoint is disabled.
 */
@Injectable()
export class SendWebhookTestEventUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointOfTenant,
    private readonly deliveries: WebhookDeliveryLogRepository,
    private readonly engine: WebhookDeliveryEngine,
    private readonly clock: Clock,
  ) {}

  async execute(command: SendWebhookTestEventCommand): Promise<WebhookDeliveryDto> {
    const { scope, enabled } = await this.endpoints.require(command);
    await command.idempotency.claimKey();
    if (!enabled) throw new AppException('WebhookEndpointDisabled');
    const payload = {
      type: 'webhook.test',
      timestamp: this.clock.now().toISOString(),
      data: { webhookEndpointID: command.webhookEndpointID, message: 'A test event sent on request.' },
    };
    const created = await this.deliveries.insertTestDelivery(scope, command.webhookEndpointID, randomUUID(), payload, propagatedHeaders() ?? null);
    // Due now in its row; the nudge only spares it the wait for the engine's next poll.
    this.engine.nudge();
    return deliveryView(created);
  }
}
