import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '@platform/scheduling';
import { WebhookEvents } from '@platform/webhooks';
import { modelStatusOfProvider } from '../models/campaign-model-status';
import { CampaignModelsRepository } from '../models/campaign-models.repository';
import { emitStatusChanged } from '../models/status-changed-event';
import { statusUpdatesOf, TemplateStatusUpdate } from './template-status-webhook';

export interface ApplyTemplateStatusCommand {
  /** A delivery whose signature was verified (WebhookSignatureGuard), parsed, as the provider sent it. */
  delivery: unknown;
}

/**
 * Status sync: moves each model a provider delivery speaks of to the
 * status it reports (docs/campaign-models.md). Idempotent and order-safe: a
 * model already in that status is left alone (a redelivery changes nothing),
 * an update older than the last one applied is ignored, and timestamps are
 * the provider's event time, not the delivery's. Each model moved emits
 * `campaignModel.statusChanged` in the transaction that moves it.
 *
 * No tenant access check: the provider's signature is the check
 * (WebhookSignatureGuard, 401 1003 before this runs), and each model is found
 * by the provider's template id and account, which tie it to the channel
 * that submitted it.
 */
@Injectable()
export class ApplyTemplateStatusUseCase {
  private readonly logger = new Logger(ApplyTemplateStatusUseCase.name);

  constructor(
    private readonly models: CampaignModelsRepository,
    private readonly clock: Clock,
    private readonly webhooks: WebhookEvents,
  ) {}

  async execute(command: ApplyTemplateStatusCommand): Promise<{ received: number }> {
    const updates = statusUpdatesOf(command.delivery, this.clock.now());
    for (const update of updates) await this.apply(update);
    return { received: updates.length };
  }

  private async apply(update: TemplateStatusUpdate): Promise<void> {
    const status = modelStatusOfProvider(update.event);
    if (!status) {
      this.logger.warn({ event: update.event }, 'unknown template status in webhook; ignored');
      return;
    }
    await this.models.transaction(async (runner) => {
      const changes = await this.models.applyProviderStatus(runner, {
        externalID: update.templateID,
        accountID: update.accountID,
        status,
        occurredAt: update.occurredAt,
        reason: update.reason,
        lastStatusUpdate: { event: update.event, reason: update.reason, at: update.occurredAt.toISOString() },
      });
      for (const change of changes) await emitStatusChanged(this.webhooks, runner, change, update.reason);
    });
  }
}
