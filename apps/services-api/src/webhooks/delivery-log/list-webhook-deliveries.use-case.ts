import { Injectable } from '@nestjs/common';
import type { WebhookDeliveryStatus } from '@platform/database';
import { listMeta, offsetOf, PageRequest } from '@platform/http-common';
import type { WebhookDeliveryListResponse } from './webhook-delivery.dto';
import { WebhookDeliveryLogRepository } from './webhook-delivery-log.repository';
import { deliveryView } from './webhook-delivery-views';
import { EndpointOfTenant, WebhookEndpointOfTenant } from './webhook-endpoint-of-tenant';

export interface ListWebhookDeliveriesCommand extends EndpointOfTenant {
  page: PageRequest;
  status?: WebhookDeliveryStatus;
}

/** An endpoint's delivery log, newest first, filtered by status. */
@Injectable()
export class ListWebhookDeliveriesUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointOfTenant,
    private readonly deliveries: WebhookDeliveryLogRepository,
  ) {}

  async execute(command: ListWebhookDeliveriesCommand): Promise<WebhookDeliveryListResponse> {
    const { scope } = await this.endpoints.require(command);
    const totalCount = await this.deliveries.count(scope, command.webhookEndpointID, command.status);
    const offset = offsetOf(command.page, totalCount);
    const found = offset === undefined ? [] : await this.deliveries.page(scope, command.webhookEndpointID, command.status, { limit: command.page.perPage, offset });
    return { data: found.map(deliveryView), meta: listMeta(command.page, totalCount, found.length) };
  }
}
