import { DynamicModule, Module } from '@nestjs/common';
import { measuredProvider, PlatformMetrics } from '@platform/observability';
import { CampaignModelsListRepository } from './models/campaign-models-list.repository';
import { CampaignModelsController } from './models/campaign-models.controller';
import { CampaignModelsRepository } from './models/campaign-models.repository';
import { CreateCampaignModelUseCase } from './models/create-campaign-model.use-case';
import { GetCampaignModelUseCase } from './models/get-campaign-model.use-case';
import { ListCampaignModelsUseCase } from './models/list-campaign-models.use-case';
import { MessageTemplateProvider, SubmissionOutcome } from './models/message-templates/message-template.provider';
import { WhatsAppCloudMessageTemplateProvider, WhatsAppCloudSettings } from './models/message-templates/whatsapp-cloud-message-template.provider';
import { TemplateSubmission } from './models/template-submission';
import { SUBMISSION_RETRY, SubmissionRetrySettings, TemplateSubmissionJobs } from './models/template-submission.job';
import { UpdateCampaignModelUseCase } from './models/update-campaign-model.use-case';
import { ApplyTemplateStatusUseCase } from './template-status/apply-template-status.use-case';
import { TemplateStatusWebhookController } from './template-status/template-status-webhook.controller';
import { WEBHOOK_APP_SECRET } from './template-status/webhook-signature.guard';
import { WEBHOOK_VERIFY_TOKEN } from './template-status/webhook-verify-token.guard';

export interface CampaignModelsSettings {
  provider: WhatsAppCloudSettings;
  retry: SubmissionRetrySettings;
  /** Secret the provider signs webhooks with; none refuses every delivery. */
  webhookAppSecret?: string;
  /** Token the provider echoes when subscribing the webhook; none refuses every subscription. */
  webhookVerifyToken?: string;
}

/** Campaign models (operations 2-5, docs/campaign-models.md), their provider submission and status sync. Needs JobsModule. */
@Module({})
export class CampaignModelsModule {
  static forRoot(settings: CampaignModelsSettings): DynamicModule {
    return {
      module: CampaignModelsModule,
      controllers: [CampaignModelsController, TemplateStatusWebhookController],
      providers: [
        {
          provide: MessageTemplateProvider,
          useFactory: (metrics: PlatformMetrics) =>
            measuredProvider('message-templates', new WhatsAppCloudMessageTemplateProvider(settings.provider), metrics, {
              operations: ['submit'],
              // The adapter answers an outage as a result, for the submission job to retry.
              failedResult: (_, outcome) => (outcome as SubmissionOutcome).kind === 'unavailable',
            }),
          inject: [PlatformMetrics],
        },
        { provide: SUBMISSION_RETRY, useValue: settings.retry },
        { provide: WEBHOOK_APP_SECRET, useValue: settings.webhookAppSecret },
        { provide: WEBHOOK_VERIFY_TOKEN, useValue: settings.webhookVerifyToken },
        CampaignModelsRepository,
        CampaignModelsListRepository,
        TemplateSubmission,
        TemplateSubmissionJobs,
        CreateCampaignModelUseCase,
        ListCampaignModelsUseCase,
        GetCampaignModelUseCase,
        UpdateCampaignModelUseCase,
        ApplyTemplateStatusUseCase,
      ],
    };
  }
}
