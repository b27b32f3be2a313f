import { Injectable } from '@nestjs/common';
import { Principal, TenantAccessService, TenantScope } from '@platform/auth';
import { AppException } from '@platform/errors';
import { OWNERS_ONLY } from '../endpoints/webhook-endpoint-access';
import { WebhookEndpointsRepository } from '../endpoints/webhook-endpoints.repository';

/** Who asks about which endpoint of which tenant: what every delivery-log command starts with. */
export interface EndpointOfTenant {
  principal: Principal;
  tenantID: string;
  webhookEndpointID: string;
}

/**
 * The owner check every delivery-log route makes, then the endpoint: owners
 * only (403 1004 for members, other tenants' operators, plugins and
 * connections), 404 1062 for an unknown tenant, 404 1960 for an endpoint the
 * tenant does not have. The first step of each delivery-log use case.
 */
@Injectable()
export class WebhookEndpointOfTenant {
  constructor(
    private readonly access: TenantAccessService,
    private readonly endpoints: WebhookEndpointsRepository,
  ) {}

  async require(command: EndpointOfTenant): Promise<{ scope: TenantScope; enabled: boolean }> {
    const scope = await this.access.require(command.principal, command.tenantID, OWNERS_ONLY);
    const endpoint = await this.endpoints.byID(scope, command.webhookEndpointID);
    if (!endpoint) throw new AppException('WebhookEndpointNotFound');
    return { scope, enabled: endpoint.enabled };
  }
}
