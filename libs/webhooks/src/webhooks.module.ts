import { DynamicModule, Global, Module } from '@nestjs/common';
import { OutboxRepository } from '@platform/outbox';
import { OUTBOX_COMMITTED_CHANNEL, OutboxNudges } from './outbox-nudges';
import { WEBHOOK_EMITTER, WebhookEvents } from './webhook-events';

/**
 * The outbox of one app (libs/outbox's repository, and the WebhookEvents that append to it): `app` is what its events name as
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
        OutboxRepository,
        OutboxNudges,
        WebhookEvents,
      ],
      exports: [OutboxRepository, WebhookEvents],
    };
  }
}
