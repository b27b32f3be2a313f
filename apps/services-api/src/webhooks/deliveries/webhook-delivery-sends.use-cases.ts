import { Injectable } from '@nestjs/common';
import { Clock } from '@platform/app-foundation';
import { AppException } from '@platform/errors';
import type { IdempotencyKeyClaim } from '@platform/idempotency';
import { propagatedHeaders } from '@platform/observability';
import { randomUUID } from 'node:crypto';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDeliveryEngine } from './webhook-delivery-engine';
import type { WebhookDeliveryDto } from './webhook-delivery.dto';
import { EndpointOfTenant, WebhookEndpointAccess } from './webhook-delivery-log.use-cases';
import { deliveryView } from './webhook-delivery-views';

/**
 * Re-sends a delivery now, by hand: a failed one gets one more attempt (and
 * is failed again if that fails), a pending one skips the rest of its wait.
 * 409 1967 when it succeeded already (a test event tries the endpoint again),
 * 409 1968 while the endpoint is disabled (its deliveries are not attempted).
 */
@Injectable()
export class ResendWebhookDeliveryUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointAccess,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly engine: WebhookDeliveryEngine,
  ) {}

  async execute(command: EndpointOfTenant & { webhookDeliveryID: string }): Promise<WebhookDeliveryDto> {
    const { enabled } = await this.endpoints.require(command);
    const resent = await this.deliveries.transaction(async (runner) => {
      const delivery = await this.deliveries.deliveryForUpdate(runner, command.webhookDeliveryID, command.webhookEndpointID);
      if (!delivery) throw new AppException('WebhookDeliveryNotFound');
      if (delivery.status === 'succeeded') throw new AppException('WebhookDeliveryAlreadySucceeded');
      if (!enabled) throw new AppException('WebhookEndpointDisabled');
      return this.deliveries.resend(runner, delivery.id);
    });
    // Due now in its row; the nudge only spares it the wait for the next poll.
    this.engine.nudge();
    return deliveryView(resent);
  }
}

/**
 * Sends a `webhook.test` event to one endpoint (none other gets it), as a
 * delivery like any other: signed, retried, in the log. 409 1968 while the
 * endpoint is disabled.
 */
@Injectable()
export class SendWebhookTestEventUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointAccess,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly engine: WebhookDeliveryEngine,
    private readonly clock: Clock,
  ) {}

  async execute(command: EndpointOfTenant & { idempotency: IdempotencyKeyClaim }): Promise<WebhookDeliveryDto> {
    const { scope, enabled } = await this.endpoints.require(command);
    await command.idempotency.claimKey();
    if (!enabled) throw new AppException('WebhookEndpointDisabled');
    const payload = {
      type: 'webhook.test',
      timestamp: this.clock.now().toISOString(),
      data: { webhookEndpointID: command.webhookEndpointID, message: 'A test event sent on request.' },
    };
    const created = await this.deliveries.insertTestDelivery(scope, command.webhookEndpointID, randomUUID(), payload, propagatedHeaders() ?? null);
    // Due now in its row; the nudge only spares it the wait for the next poll.
    this.engine.nudge();
    return deliveryView(created);
  }
}
