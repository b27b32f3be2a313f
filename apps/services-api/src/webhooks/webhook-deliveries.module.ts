import { DynamicModule, Module } from '@nestjs/common';
import { OutboundHttp, OutboundPolicy } from '@platform/http-outbound';
import { WebhookDeliveriesRepository } from './delivery-engine/webhook-deliveries.repository';
import { WebhookDeliveryEngine } from './delivery-engine/webhook-delivery-engine';
import { WebhookDeliveryMetrics } from './delivery-engine/webhook-delivery-metrics';
import { WebhookDeliveryRetention } from './delivery-engine/webhook-delivery-retention';
import { WEBHOOK_DELIVERY_SETTINGS, WebhookDeliverySettings } from './delivery-engine/webhook-delivery-settings';
import { WebhookFanOut } from './delivery-engine/webhook-fan-out';
import { WebhookSender } from './delivery-engine/webhook-sender';
import { GetWebhookDeliveryUseCase } from './delivery-log/get-webhook-delivery.use-case';
import { ListWebhookDeliveriesUseCase } from './delivery-log/list-webhook-deliveries.use-case';
import { RetryWebhookDeliveryUseCase } from './delivery-log/retry-webhook-delivery.use-case';
import { SendWebhookTestEventUseCase } from './delivery-log/send-webhook-test-event.use-case';
import { WebhookDeliveriesController } from './delivery-log/webhook-deliveries.controller';
import { WebhookDeliveryLogRepository } from './delivery-log/webhook-delivery-log.repository';
import { WebhookEndpointOfTenant } from './delivery-log/webhook-endpoint-of-tenant';
import { WebhookEndpointsStoreModule } from './endpoints/webhook-endpoints-store.module';

/**
 * Outbound webhook delivery (docs/webhooks.md), in two parts:
 * `delivery-engine/` delivers (one loop over the event outbox and the
 * deliveries, with retention and metrics), `delivery-log/` is the owners'
 * routes on the log (read, re-send, test events), which make deliveries due
 * and nudge the engine. Endpoints are read and their delivery state written
 * through the endpoints' repository. Receivers are reached through their own
 * outbound client, under the platform's outbound policy. Needs
 * WebhookSigningSecretsModule.
 */
@Module({})
export class WebhookDeliveriesModule {
  static forRoot(settings: WebhookDeliverySettings, outbound: OutboundPolicy): DynamicModule {
    return {
      module: WebhookDeliveriesModule,
      imports: [WebhookEndpointsStoreModule],
      controllers: [WebhookDeliveriesController],
      providers: [
        { provide: WEBHOOK_DELIVERY_SETTINGS, useValue: settings },
        { provide: OutboundHttp, useFactory: () => new OutboundHttp(outbound) },
        { provide: WebhookSender, useFactory: (http: OutboundHttp) => new WebhookSender(http, settings.timeoutMs), inject: [OutboundHttp] },
        WebhookDeliveriesRepository,
        WebhookDeliveryMetrics,
        WebhookFanOut,
        WebhookDeliveryEngine,
        WebhookDeliveryRetention,
        WebhookDeliveryLogRepository,
        WebhookEndpointOfTenant,
        ListWebhookDeliveriesUseCase,
        GetWebhookDeliveryUseCase,
        RetryWebhookDeliveryUseCase,
        SendWebhookTestEventUseCase,
      ],
      exports: [WebhookDeliveryEngine, WebhookDeliveryRetention],
    };
  }
}
