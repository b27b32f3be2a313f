import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { listMeta, offsetOf, PageRequest } from '@platform/http-common';
import type { WebhookEndpointListResponse } from './webhook-endpoint.dto';
import { OWNERS_ONLY } from './webhook-endpoint-access';
import { webhookEndpointView } from './webhook-endpoint-view';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';

export interface ListWebhookEndpointsCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  page: PageRequest;
}

/** The tenant's endpoints, oldest first, paged like every list. */
@Injectable()
export class ListWebhookEndpointsUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly endpoints: WebhookEndpointsRepository,
  ) {}

  async execute({ principal, tenantID, page }: ListWebhookEndpointsCommand): Promise<WebhookEndpointListResponse> {
    const scope = await this.access.require(principal, tenantID, OWNERS_ONLY);
    const totalCount = await this.endpoints.count(scope);
    const offset = offsetOf(page, totalCount);
    const rows = offset === undefined ? [] : await this.endpoints.page(scope, { offset, limit: page.perPage });
    return { data: rows.map(webhookEndpointView), meta: listMeta(page, totalCount, rows.length) };
  }
}
