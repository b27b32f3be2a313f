import { Injectable } from '@nestjs/common';
import { AppException } from '@platform/errors';
import { WebhookDeliveryEngine } from '../delivery-engine/webhook-delivery-engine';
import type { WebhookDeliveryDto } from './webhook-delivery.dto';
import { WebhookDeliveryLogRepository } from './webhook-delivery-log.repository';
import { deliveryView } from './webhook-delivery-views';
import { EndpointOfTenant, WebhookEndpointOfTenant } from './webhook-endpoint-of-tenant';

export interface RetryWebhookDeliveryCommand extends EndpointOfTenant {
  webhookDeliveryID: string;
}

/**
 * Re-sends a delivery now, by hand: a failed one gets one more attempt (and
 * is failed again if that fails), a pending one skips the rest of its wait.
 * 409 1967 when it succeeded already (a test event tries the endpoint again),
 * 409 1968 while the endpoint is disabled (its deliveries are not attempted).
 */
@Injectable()
export class RetryWebhookDeliveryUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointOfTenant,
    private readonly deliveries: WebhookDeliveryLogRepository,
    private readonly engine: WebhookDeliveryEngine,
  ) {}

  async execute(command: RetryWebhookDeliveryCommand): Promise<WebhookDeliveryDto> {
    const { scope, enabled } = await this.endpoints.require(command);
    const resent = await this.deliveries.transaction(async (runner) => {
      const delivery = await this.deliveries.byIDForUpdate(runner, scope, command.webhookEndpointID, command.webhookDeliveryID);
      if (!delivery) throw new AppException('WebhookDeliveryNotFound');
      if (delivery.status === 'succeeded') throw new AppException('WebhookDeliveryAlreadySucceeded');
      if (!enabled) throw new AppException('WebhookEndpointDisabled');
      return this.deliveries.resend(runner, scope, delivery.webhookDeliveryID);
    });
    // Due now in its row; the nudge only spares it the wait for the engine's next poll.
    this.engine.nudge();
    return deliveryView(resent);
  }
}
