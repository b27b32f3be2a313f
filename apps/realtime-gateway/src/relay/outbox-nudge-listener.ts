import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { connectionNameOf, duplicateConnection, REDIS } from '@platform/redis';
import type Redis from 'ioredis';
import { OutboxRelay } from './outbox-relay';

export const OUTBOX_COMMITTED_CHANNEL = Symbol('OUTBOX_COMMITTED_CHANNEL');

/**
 * Nudges this replica's relay whenever services-api announces a commit of
 * conversation events (OutboxNudges of libs/webhooks), so an event is
 * streamed at once rather than at the relay's next poll.
 *
 * A message is trusted with nothing: its content is not read, and all it
 * does is make the relay look at the outbox now, as its poll would (whoever
 * can publish on Redis can make the relay look more often, no more). Every
 * replica listens; the relay's advisory lock lets one work, and a burst of
 * nudges while it works coalesces into one more look (DueWorkLoop.nudge).
 * While this connection is away the poll alone relays; on every
 * (re)subscription the relay looks once, for the commits announced meanwhile.
 */
@Injectable()
export class OutboxNudgeListener implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(OutboxNudgeListener.name);
  private subscriber: Redis | undefined;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(OUTBOX_COMMITTED_CHANNEL) private readonly channel: string,
    private readonly relay: OutboxRelay,
  ) {}

  onModuleInit(): void {
    // autoResubscribe off, as the standings' listener: it subscribes on every 'ready' itself, and catches the refusal.
    const subscriber = duplicateConnection(this.redis, `${connectionNameOf(this.redis, 'platform')}:outbox-nudges`, { autoResubscribe: false });
    this.subscriber = subscriber;
    subscriber.on('ready', () => void this.subscribe(subscriber));
    // Outages are reported by the shared client (libs/redis); this connection only reconnects with it.
    subscriber.on('error', () => undefined);
    subscriber.on('message', (channel: string) => {
      if (channel === this.channel) this.relay.nudge();
    });
  }

  onApplicationShutdown(): void {
    this.subscriber?.disconnect();
  }

  private async subscribe(subscriber: Redis): Promise<void> {
    try {
      await subscriber.subscribe(this.channel);
      this.relay.nudge();
    } catch (error) {
      this.logger.warn({ err: error }, 'outbox nudges not subscribed; the relay polls the outbox alone');
    }
  }
}
