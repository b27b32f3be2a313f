import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { AppException } from '@platform/errors';
import type { WebhookEndpointDto } from './webhook-endpoint.dto';
import { OWNERS_ONLY } from './webhook-endpoint-access';
import { webhookEndpointView } from './webhook-endpoint-view';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';

export interface GetWebhookEndpointCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  /** Canonical (IsCanonicalUuid). */
  webhookEndpointID: string;
}

/** One endpoint of the tenant (404 1960 otherwise, another tenant's included), without its secret. */
@Injectable()
export class GetWebhookEndpointUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly endpoints: WebhookEndpointsRepository,
  ) {}

  async execute({ principal, tenantID, webhookEndpointID }: GetWebhookEndpointCommand): Promise<WebhookEndpointDto> {
    const scope = await this.access.require(principal, tenantID, OWNERS_ONLY);
    const found = await this.endpoints.byID(scope, webhookEndpointID);
    if (!found) throw new AppException('WebhookEndpointNotFound');
    return webhookEndpointView(found);
  }
}
