import { Injectable } from '@nestjs/common';
import { Principal, TenantAccessService, TenantScope } from '@platform/auth';
import type { WebhookDeliveryStatus } from '@platform/database';
import { AppException } from '@platform/errors';
import { listMeta, offsetOf, PageRequest } from '@platform/http-common';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import type { WebhookDeliveryDetailDto, WebhookDeliveryListResponse } from './webhook-delivery.dto';
import { attemptView, deliveryView } from './webhook-delivery-views';

export interface EndpointOfTenant {
  principal: Principal;
  tenantID: string;
  webhookEndpointID: string;
}

/**
 * The owner check every delivery route makes, then the endpoint: owners only
 * (403 1004 for members, other tenants' operators, plugins and connections),
 * 404 1062 for an unknown tenant, 404 1960 for an endpoint the tenant does
 * not have.
 */
@Injectable()
export class WebhookEndpointAccess {
  constructor(
    private readonly access: TenantAccessService,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  async require(command: EndpointOfTenant): Promise<{ scope: TenantScope; enabled: boolean }> {
    const scope = await this.access.require(command.principal, command.tenantID, { ownerOnly: true, tenantNotFoundIs404: true });
    const endpoint = await this.deliveries.endpointOf(scope, command.webhookEndpointID);
    if (!endpoint) throw new AppException('WebhookEndpointNotFound');
    return { scope, enabled: endpoint.enabled };
  }
}

/** An endpoint's delivery log, newest first, filtered by status. */
@Injectable()
export class ListWebhookDeliveriesUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointAccess,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  async execute(command: EndpointOfTenant & { page: PageRequest; status?: WebhookDeliveryStatus }): Promise<WebhookDeliveryListResponse> {
    await this.endpoints.require(command);
    const totalCount = await this.deliveries.count(command.webhookEndpointID, command.status);
    const offset = offsetOf(command.page, totalCount);
    const found = offset === undefined ? [] : await this.deliveries.page(command.webhookEndpointID, command.status, command.page.perPage, offset);
    return { data: found.map(deliveryView), meta: listMeta(command.page, totalCount, found.length) };
  }
}

/** One delivery with its attempts, oldest first. */
@Injectable()
export class ReadWebhookDeliveryUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointAccess,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  async execute(command: EndpointOfTenant & { webhookDeliveryID: string }): Promise<WebhookDeliveryDetailDto> {
    await this.endpoints.require(command);
    const delivery = await this.deliveries.delivery(command.webhookDeliveryID, command.webhookEndpointID);
    if (!delivery) throw new AppException('WebhookDeliveryNotFound');
    return { ...deliveryView(delivery), attempts: (await this.deliveries.attempts(delivery.id)).map(attemptView) };
  }
}
