import { DynamicModule, Global, Module } from '@nestjs/common';
import { WEBHOOK_EMITTER, WebhookEvents } from './webhook-events';
import { WebhookEventsRepository } from './webhook-events.repository';

/** The webhook outbox of one app: `app` is what its events name as `emitted_by`. */
@Global()
@Module({})
export class WebhooksModule {
  static forApp(app: string): DynamicModule {
    return {
      module: WebhooksModule,
      providers: [{ provide: WEBHOOK_EMITTER, useValue: app }, WebhookEventsRepository, WebhookEvents],
      exports: [WebhookEventsRepository, WebhookEvents],
    };
  }
}
