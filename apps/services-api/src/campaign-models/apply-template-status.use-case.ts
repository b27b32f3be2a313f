import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '@platform/app-foundation';
import { AppException } from '@platform/errors';
import { modelStatusOfProvider } from './campaign-model-status';
import { CampaignModelsRepository } from './campaign-models.repository';
import { signatureMatches, statusUpdatesOf, TemplateStatusUpdate, WEBHOOK_APP_SECRET } from './template-status-webhook';

export interface ApplyTemplateStatusCommand {
  /** The delivery's body as received, for its signature. */
  rawBody: Buffer | undefined;
  /** The `X-Hub-Signature-256` header. */
  signature: unknown;
  /** The delivery, parsed. */
  body: unknown;
}

/**
 * Status sync: moves each model a signed provider delivery speaks of to the
 * status it reports (docs/campaign-models.md). Idempotent and order-safe: a
 * model already in that status is left alone (a redelivery changes nothing),
 * an update older than the last one applied is ignored, and timestamps are
 * the provider's event time, not the delivery's.
 *
 * No tenant access check: the provider's signature is the check (401 1003
 * otherwise), and each model is found by the provider's template id and
 * account, which tie it to the channel that submitted it.
 */
@Injectable()
export class ApplyTemplateStatusUseCase {
  private readonly logger = new Logger(ApplyTemplateStatusUseCase.name);

  constructor(
    @Inject(WEBHOOK_APP_SECRET) private readonly appSecret: string | undefined,
    private readonly models: CampaignModelsRepository,
    private readonly clock: Clock,
  ) {}

  async execute(command: ApplyTemplateStatusCommand): Promise<{ received: number }> {
    if (!signatureMatches(this.appSecret, command.rawBody, command.signature)) throw new AppException('Unauthorized');
    const updates = statusUpdatesOf(command.body, this.clock.now());
    for (const update of updates) await this.apply(update);
    return { received: updates.length };
  }

  private async apply(update: TemplateStatusUpdate): Promise<void> {
    const status = modelStatusOfProvider(update.event);
    if (!status) {
      this.logger.warn({ event: update.event }, 'unknown template status in webhook; ignored');
      return;
    }
    await this.models.applyProviderStatus({
      externalID: update.templateId,
      accountID: update.accountId,
      status,
      occurredAt: update.occurredAt,
      reason: update.reason,
      lastStatusUpdate: { event: update.event, reason: update.reason, at: update.occurredAt.toISOString() },
    });
  }
}
