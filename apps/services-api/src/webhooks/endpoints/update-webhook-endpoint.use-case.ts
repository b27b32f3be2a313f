import { Inject, Injectable } from '@nestjs/common';
import { AuditTrail } from '@platform/audit';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { AppException } from '@platform/errors';
import type { WebhookEndpointDto } from './webhook-endpoint.dto';
import { OWNERS_ONLY } from './webhook-endpoint-access';
import { webhookEndpointView } from './webhook-endpoint-view';
import { WebhookEndpointChanges, WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WEBHOOK_ENDPOINTS_SETTINGS, WebhookEndpointsSettings } from './webhook-endpoints-settings';
import { refuseUnallowedDestination } from './webhook-url';

export interface UpdateWebhookEndpointCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  /** Canonical (IsCanonicalUuid). */
  webhookEndpointID: string;
  /** What to change; a field left undefined stays as it is. */
  changes: WebhookEndpointChanges;
}

const CHANGEABLE = ['url', 'eventTypes', 'description', 'enabled'] as const;

/**
 * Changes the fields sent, a new URL judged like a created one. Enabling an
 * endpoint the platform disabled after failures clears why and since when
 * (disabledAt, disabledReason, failingSince): it starts afresh. A body that
 * changes nothing answers the endpoint as it is and records nothing.
 */
@Injectable()
export class UpdateWebhookEndpointUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly audit: AuditTrail,
    @Inject(WEBHOOK_ENDPOINTS_SETTINGS) private readonly settings: WebhookEndpointsSettings,
  ) {}

  async execute({ principal, tenantID, webhookEndpointID, changes }: UpdateWebhookEndpointCommand): Promise<WebhookEndpointDto> {
    const scope = await this.access.require(principal, tenantID, OWNERS_ONLY);
    if (changes.url !== undefined) refuseUnallowedDestination(changes.url, this.settings.destinations);
    const changed = CHANGEABLE.filter((field) => changes[field] !== undefined);

    const updated =
      changed.length === 0
        ? await this.endpoints.byID(scope, webhookEndpointID)
        : await this.endpoints.transaction(async (runner) => {
            const row = await this.endpoints.update(runner, scope, webhookEndpointID, changes);
            if (row) await this.audit.record(runner, scope, { action: 'webhookEndpoint.updated', targetID: row.webhookEndpointID, summary: { changed } });
            return row;
          });
    if (!updated) throw new AppException('WebhookEndpointNotFound');
    return webhookEndpointView(updated);
  }
}
