import { trustedTenantScope } from '@platform/auth';
import type { SqlRunner } from '@platform/database';
import type { WebhookEvents } from '@platform/webhooks';
import type { ModelStatusChange } from './campaign-models.repository';

/**
 * Emits `campaignModel.statusChanged` (docs/webhooks.md) for a status change,
 * in the change's transaction (`runner`). The provider causes these changes
 * (its answer to a submission, its signed status webhook), not a request of
 * the tenant: the scope is the model's own tenant. Ordered by the model.
 */
export async function emitStatusChanged(webhooks: WebhookEvents, runner: SqlRunner, change: ModelStatusChange, reason: string | null): Promise<void> {
  await webhooks.emit(runner, trustedTenantScope(change.tenantID), {
    type: 'campaignModel.statusChanged',
    subject: `campaignModel:${change.campaignModelID}`,
    data: { campaignModelID: change.campaignModelID, name: change.name, previousStatus: change.previousStatus, status: change.status, reason },
  });
}
