import { DynamicModule, Global, Module } from '@nestjs/common';
import { OUTBOX_COMMITTED_CHANNEL, OutboxNudges } from './outbox-nudges';
import { WEBHOOK_EMITTER, WebhookEvents } from './webhook-events';
import { WebhookEventsRepository } from './webhook-events.repository';

/**
 * The webhook outbox of one app: `app` is what its events name as
 * `emitted_by`; `committedChannel` (outboxCommittedChannel) is where commits
 * of conversation events nudge the real-time relay.
 */
@Global()
@Module({})
export class WebhooksModule {
  static forApp(app: string, committedChannel: string): DynamicModule {
    return {
      module: WebhooksModule,
      providers: [
        { provide: WEBHOOK_EMITTER, useValue: app },
        { provide: OUTBOX_COMMITTED_CHANNEL, useValue: committedChannel },
        WebhookEventsRepository,
        OutboxNudges,
        WebhookEvents,
      ],
      exports: [WebhookEventsRepository, WebhookEvents],
    };
  }
}
