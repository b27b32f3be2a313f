import { Injectable, Logger } from '@nestjs/common';
import { WebhookEvents } from '@platform/webhooks';
import { CampaignModelsRepository } from './campaign-models.repository';
import { modelStatusOfProvider } from './campaign-model-status';
import { MessageTemplateProvider } from './message-templates/message-template.provider';
import { emitStatusChanged } from './status-changed-event';
import { providerTemplateOf } from './template-content';

export type SubmissionResult = 'accepted' | 'refused' | 'unavailable' | 'not-awaiting';

/**
 * Submits a model that awaits submission to the provider and records the
 * outcome on it. Used right after a create and by the durable retry job; a
 * model that already left `awaiting_submission` is left alone, and the
 * provider adapter adopts a template an earlier unanswered attempt created,
 * so the provider ends up with one template whatever the retries. The
 * model's new status and its `campaignModel.statusChanged` event commit together.
 */
@Injectable()
export class TemplateSubmission {
  private readonly logger = new Logger(TemplateSubmission.name);

  constructor(
    private readonly models: CampaignModelsRepository,
    private readonly provider: MessageTemplateProvider,
    private readonly webhooks: WebhookEvents,
  ) {}

  async submit(campaignModelID: string): Promise<SubmissionResult> {
    const subject = await this.models.findSubmissionSubject(campaignModelID);
    if (!subject || subject.status !== 'awaiting_submission') return 'not-awaiting';
    const outcome = await this.provider.submit(
      { accountID: subject.accountID, credentialsRef: subject.credentialsRef },
      providerTemplateOf({ name: subject.name, language: subject.language, type: subject.type, slots: subject.slots }),
    );
    switch (outcome.kind) {
      case 'accepted': {
        // A status we do not know yet still means the provider holds it for review.
        const status = modelStatusOfProvider(outcome.providerStatus) ?? 'evaluating';
        await this.models.transaction(async (runner) => {
          const change = await this.models.recordAccepted(runner, campaignModelID, outcome.externalID, status, outcome.raw);
          if (change) await emitStatusChanged(this.webhooks, runner, change, null);
        });
        return 'accepted';
      }
      case 'refused':
        await this.models.transaction(async (runner) => {
          const change = await this.models.recordRefused(runner, campaignModelID, outcome.errorCode, outcome.errorMessage, outcome.raw);
          if (change) await emitStatusChanged(this.webhooks, runner, change, outcome.errorMessage);
        });
        return 'refused';
      case 'unavailable':
        this.logger.warn({ campaignModelID, reason: outcome.reason }, 'template provider unavailable; submission stays queued');
        await this.models.recordUnavailable(campaignModelID);
        return 'unavailable';
    }
  }
}
