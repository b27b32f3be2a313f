import { Injectable } from '@nestjs/common';
import { AuditTrail } from '@platform/audit';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { AppException } from '@platform/errors';
import { OWNERS_ONLY } from './webhook-endpoint-access';
import { urlOriginOf } from './webhook-endpoint-view';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';

export interface DeleteWebhookEndpointCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  /** Canonical (IsCanonicalUuid). */
  webhookEndpointID: string;
}

/**
 * Deletes the endpoint with its deliveries and their attempts (the foreign
 * keys cascade), and records `webhookEndpoint.deleted` in the same
 * transaction. A delivery in flight at that moment may still reach the URL once.
 */
@Injectable()
export class DeleteWebhookEndpointUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly audit: AuditTrail,
  ) {}

  async execute({ principal, tenantID, webhookEndpointID }: DeleteWebhookEndpointCommand): Promise<void> {
    const scope = await this.access.require(principal, tenantID, OWNERS_ONLY);
    await this.endpoints.transaction(async (runner) => {
      const deleted = await this.endpoints.delete(runner, scope, webhookEndpointID);
      if (!deleted) throw new AppException('WebhookEndpointNotFound');
      await this.audit.record(runner, scope, { action: 'webhookEndpoint.deleted', targetID: webhookEndpointID, summary: { urlOrigin: urlOriginOf(deleted.url) } });
    });
  }
}
