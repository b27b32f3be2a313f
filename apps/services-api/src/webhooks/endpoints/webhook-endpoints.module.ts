import { DynamicModule, Module } from '@nestjs/common';
import { CreateWebhookEndpointUseCase } from './create-webhook-endpoint.use-case';
import { DeleteWebhookEndpointUseCase } from './delete-webhook-endpoint.use-case';
import { GetWebhookEndpointUseCase } from './get-webhook-endpoint.use-case';
import { ListWebhookEndpointsUseCase } from './list-webhook-endpoints.use-case';
import { RotateWebhookEndpointSecretUseCase } from './rotate-webhook-endpoint-secret.use-case';
import { UpdateWebhookEndpointUseCase } from './update-webhook-endpoint.use-case';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpointsStoreModule } from './webhook-endpoints-store.module';
import { WEBHOOK_ENDPOINTS_SETTINGS, WebhookEndpointsSettings } from './webhook-endpoints-settings';

/** A tenant's webhook endpoints and their secrets (docs/webhooks.md). Needs WebhookSigningSecretsModule. */
@Module({})
export class WebhookEndpointsModule {
  static forRoot(settings: WebhookEndpointsSettings): DynamicModule {
    return {
      module: WebhookEndpointsModule,
      imports: [WebhookEndpointsStoreModule],
      controllers: [WebhookEndpointsController],
      providers: [
        { provide: WEBHOOK_ENDPOINTS_SETTINGS, useValue: settings },
        CreateWebhookEndpointUseCase,
        ListWebhookEndpointsUseCase,
        GetWebhookEndpointUseCase,
        UpdateWebhookEndpointUseCase,
        DeleteWebhookEndpointUseCase,
        RotateWebhookEndpointSecretUseCase,
      ],
    };
  }
}
