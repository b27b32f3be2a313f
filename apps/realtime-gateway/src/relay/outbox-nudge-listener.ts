import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { connectionNameOf, duplicateConnection, REDIS } from '@platform/redis';
import type Redis from 'ioredis';
import { CoalescedNudge } from './coalesced-nudge';
import { OutboxRelay } from './outbox-relay';

export const OUTBOX_COMMITTED_CHANNEL = Symbol('OUTBOX_COMMITTED_CHANNEL');

/** How long the first nudge waits for others, so the relay takes a burst of commits in one batch (CoalescedNudge). */
export const NUDGE_COALESCE_MS = 5;

/**
 * Nudges this replica's relay whenever services-api announces a commit of
 * conversation events (OutboxNudges of libs/webhooks), so an event is
 * streamed at once rather than at the relay's next poll.
 *
 * A message is trusted with nothing: its content is not read, and all it
 * does is make the relay look at the outbox now, as its poll would (whoever
 * can publish on Redis can make the relay look more often, no more). Every
 * replica listens; the relay's advisory lock lets one work. Nudges are
 * gathered for NUDGE_COALESCE_MS from the first (CoalescedNudge), so a
 * burst of commits is relayed in one batch and read by the gateways in one
 * XREAD; a burst of nudges while the relay works coalesces into one more
 * look (DueWorkLoop.nudge).
 * While this connection is away the poll alone relays; on every
 * (re)subscription the relay looks once, for the commits announced meanwhile.
 */
@Injectable()
export class OutboxNudgeListener implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(OutboxNudgeListener.name);
  private subscriber: Redis | undefined;
  private readonly coalesced: CoalescedNudge;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(OUTBOX_COMMITTED_CHANNEL) private readonly channel: string,
    private readonly relay: OutboxRelay,
  ) {
    this.coalesced = new CoalescedNudge(NUDGE_COALESCE_MS, () => relay.nudge());
  }

  onModuleInit(): void {
    // autoResubscribe off, as the standings' listener: it subscribes on every 'ready' itself, and catches the refusal.
    const subscriber = duplicateConnection(this.redis, `${connectionNameOf(this.redis, 'platform')}:outbox-nudges`, { autoResubscribe: false });
    this.subscriber = subscriber;
    subscriber.on('ready', () => void this.subscribe(subscriber));
    // Outages are reported by the shared client (libs/redis); this connection only reconnects with it.
    subscriber.on('error', () => undefined);
    subscriber.on('message', (channel: string) => {
      if (channel === this.channel) this.coalesced.request();
    });
  }

  onApplicationShutdown(): void {
    this.coalesced.cancel();
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
