import { DynamicModule, Module } from '@nestjs/common';
import { measuredProvider, PlatformMetrics } from '@platform/observability';
import { ApplyTemplateStatusUseCase } from './apply-template-status.use-case';
import { CampaignModelsListRepository } from './campaign-models-list.repository';
import { CampaignModelsController } from './campaign-models.controller';
import { CampaignModelsRepository } from './campaign-models.repository';
import { CreateCampaignModelUseCase } from './create-campaign-model.use-case';
import { GetCampaignModelUseCase } from './get-campaign-model.use-case';
import { ListCampaignModelsUseCase } from './list-campaign-models.use-case';
import { MESSAGE_TEMPLATE_PROVIDER, SubmissionOutcome } from './provider/message-template-provider';
import { WhatsAppCloudSettings, WhatsAppCloudTemplateProvider } from './provider/whatsapp-cloud.adapter';
import { SUBMISSION_RETRY, SubmissionRetrySettings, TemplateSubmissionJobs } from './template-submission.job';
import { TemplateSubmission } from './template-submission';
import { WEBHOOK_APP_SECRET } from './template-status-webhook';
import { TemplateStatusWebhookController, WEBHOOK_VERIFY_TOKEN } from './template-status-webhook.controller';
import { UpdateCampaignModelUseCase } from './update-campaign-model.use-case';

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
          provide: MESSAGE_TEMPLATE_PROVIDER,
          useFactory: (metrics: PlatformMetrics) =>
            measuredProvider('message-templates', new WhatsAppCloudTemplateProvider(settings.provider), metrics, {
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
