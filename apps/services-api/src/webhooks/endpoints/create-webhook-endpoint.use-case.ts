import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AuditTrail } from '@platform/audit';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { AppException } from '@platform/errors';
import type { IdempotencyKeyClaim } from '@platform/idempotency';
import { WebhookSigningSecrets } from '../signing-secrets';
import type { WebhookEndpointWithSecretDto } from './webhook-endpoint.dto';
import { OWNERS_ONLY } from './webhook-endpoint-access';
import { urlOriginOf, webhookEndpointWithSecret } from './webhook-endpoint-view';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WEBHOOK_ENDPOINTS_SETTINGS, WebhookEndpointsSettings } from './webhook-endpoints-settings';
import { refuseUnallowedDestination } from './webhook-url';

export interface CreateWebhookEndpointCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  /** Well-formed (the request validation): the use case judges its destination. */
  url: string;
  /** Distinct and subscribable (the request validation). */
  eventTypes: string[];
  /** Empty when left out. */
  description?: string;
  /** True when left out. */
  enabled?: boolean;
  /** Claimed right after the access check (docs/idempotency.md, check order). */
  idempotency: IdempotencyKeyClaim;
}

/**
 * Registers an endpoint for the tenant's owners: its URL judged by the
 * outbound policy, its signing secret made here and stored sealed, within
 * the tenant's bound (409 1961), with `webhookEndpoint.created` in the same
 * transaction. The plain secret is in this answer and nowhere else.
 */
@Injectable()
export class CreateWebhookEndpointUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly secrets: WebhookSigningSecrets,
    private readonly audit: AuditTrail,
    @Inject(WEBHOOK_ENDPOINTS_SETTINGS) private readonly settings: WebhookEndpointsSettings,
  ) {}

  async execute(command: CreateWebhookEndpointCommand): Promise<WebhookEndpointWithSecretDto> {
    const scope = await this.access.require(command.principal, command.tenantID, OWNERS_ONLY);
    await command.idempotency.claimKey();
    refuseUnallowedDestination(command.url, this.settings.destinations);

    const id = randomUUID();
    const secret = this.secrets.generate();
    const endpoint = {
      id,
      url: command.url,
      description: command.description ?? '',
      eventTypes: command.eventTypes,
      enabled: command.enabled ?? true,
      sealedSecret: this.secrets.seal(id, secret),
    };
    const created = await this.endpoints.transaction(async (runner) => {
      const inserted = await this.endpoints.insertWithinLimit(runner, scope, endpoint, this.settings.endpointsPerTenant);
      if (!inserted) throw new AppException('WebhookEndpointLimitReached');
      await this.audit.record(runner, scope, {
        action: 'webhookEndpoint.created',
        targetID: id,
        summary: { urlOrigin: urlOriginOf(endpoint.url), eventTypes: endpoint.eventTypes, enabled: endpoint.enabled },
      });
      return inserted;
    });
    return webhookEndpointWithSecret(created, secret);
  }
}
