import { DynamicModule, Module } from '@nestjs/common';
import { OutboundHttp, OutboundPolicy } from '@platform/http-outbound';
import { WebhookDeliveriesController } from './webhook-deliveries.controller';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDeliveryEngine } from './webhook-delivery-engine';
import { ListWebhookDeliveriesUseCase, ReadWebhookDeliveryUseCase, WebhookEndpointAccess } from './webhook-delivery-log.use-cases';
import { WebhookDeliveryMetrics } from './webhook-delivery-metrics';
import { WebhookDeliveryRetention } from './webhook-delivery-retention';
import { ResendWebhookDeliveryUseCase, SendWebhookTestEventUseCase } from './webhook-delivery-sends.use-cases';
import { WEBHOOK_DELIVERY_SETTINGS, WebhookDeliverySettings } from './webhook-delivery-settings';
import { WebhookFanOut } from './webhook-fan-out';
import { WebhookSender } from './webhook-sender';

/**
 * Outbound webhook delivery (docs/webhooks.md): the delivery engine (one
 * loop over the event outbox and the deliveries), the delivery log's routes,
 * retention and metrics. Receivers are reached through their own outbound
 * client, under the platform's outbound policy.
 */
@Module({})
export class WebhookDeliveriesModule {
  static forRoot(settings: WebhookDeliverySettings, outbound: OutboundPolicy): DynamicModule {
    return {
      module: WebhookDeliveriesModule,
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
        WebhookEndpointAccess,
        ListWebhookDeliveriesUseCase,
        ReadWebhookDeliveryUseCase,
        ResendWebhookDeliveryUseCase,
        SendWebhookTestEventUseCase,
      ],
      exports: [WebhookDeliveryEngine, WebhookDeliveryRetention],
    };
  }
}
