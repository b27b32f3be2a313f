import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '@platform/scheduling';
import { AuditTrail } from '@platform/audit';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { AppException } from '@platform/errors';
import type { IdempotencyKeyClaim } from '@platform/idempotency';
import { WebhookSigningSecrets } from '../signing-secrets';
import type { WebhookEndpointWithSecretDto } from './webhook-endpoint.dto';
import { OWNERS_ONLY } from './webhook-endpoint-access';
import { webhookEndpointWithSecret } from './webhook-endpoint-view';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WEBHOOK_ENDPOINTS_SETTINGS, WebhookEndpointsSettings } from './webhook-endpoints-settings';

const HOUR_MS = 3_600_000;

export interface RotateWebhookEndpointSecretCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  /** Canonical (IsCanonicalUuid). */
  webhookEndpointID: string;
  /** Claimed right after the access check: a retried rotation whose answer was lost gets that answer, not a third secret. */
  idempotency: IdempotencyKeyClaim;
}

/**
 * Gives the endpoint a new signing secret, shown in this answer only. The
 * one it replaces keeps signing deliveries, beside the new one, for
 * WEBHOOK_SECRET_ROTATION_GRACE_HOURS, so the receiver can switch over
 * without refusing a delivery; a second rotation within that time retires
 * the oldest at once. Records `webhookEndpoint.secretRotated` in the same
 * transaction.
 */
@Injectable()
export class RotateWebhookEndpointSecretUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly secrets: WebhookSigningSecrets,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
    @Inject(WEBHOOK_ENDPOINTS_SETTINGS) private readonly settings: WebhookEndpointsSettings,
  ) {}

  async execute({ principal, tenantID, webhookEndpointID, idempotency }: RotateWebhookEndpointSecretCommand): Promise<WebhookEndpointWithSecretDto> {
    const scope = await this.access.require(principal, tenantID, OWNERS_ONLY);
    await idempotency.claimKey();
    const secret = this.secrets.generate();
    const graceMs = this.settings.rotationGraceHours * HOUR_MS;
    const previousExpiresAt = graceMs > 0 ? new Date(this.clock.now().getTime() + graceMs) : null;
    const rotated = await this.endpoints.transaction(async (runner) => {
      const row = await this.endpoints.rotateSecret(runner, scope, webhookEndpointID, this.secrets.seal(webhookEndpointID, secret), previousExpiresAt);
      if (!row) throw new AppException('WebhookEndpointNotFound');
      await this.audit.record(runner, scope, {
        action: 'webhookEndpoint.secretRotated',
        targetID: webhookEndpointID,
        summary: { previousValidUntil: previousExpiresAt ? previousExpiresAt.toISOString() : null },
      });
      return row;
    });
    return webhookEndpointWithSecret(rotated, secret);
  }
}
