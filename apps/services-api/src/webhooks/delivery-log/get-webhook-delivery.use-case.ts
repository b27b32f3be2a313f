import { Injectable } from '@nestjs/common';
import { AppException } from '@platform/errors';
import type { WebhookDeliveryDetailDto } from './webhook-delivery.dto';
import { WebhookDeliveryLogRepository } from './webhook-delivery-log.repository';
import { attemptView, deliveryView } from './webhook-delivery-views';
import { EndpointOfTenant, WebhookEndpointOfTenant } from './webhook-endpoint-of-tenant';

export interface GetWebhookDeliveryCommand extends EndpointOfTenant {
  webhookDeliveryID: string;
}

/** One delivery with its attempts, oldest first; 404 1966 for a delivery the endpoint does not have. */
@Injectable()
export class GetWebhookDeliveryUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointOfTenant,
    private readonly deliveries: WebhookDeliveryLogRepository,
  ) {}

  async execute(command: GetWebhookDeliveryCommand): Promise<WebhookDeliveryDetailDto> {
    const { scope } = await this.endpoints.require(command);
    const delivery = await this.deliveries.byID(scope, command.webhookEndpointID, command.webhookDeliveryID);
    if (!delivery) throw new AppException('WebhookDeliveryNotFound');
    return { ...deliveryView(delivery), attempts: (await this.deliveries.attempts(scope, delivery.webhookDeliveryID)).map(attemptView) };
  }
}
