import { Inject, Injectable, Logger } from '@nestjs/common';
import { REDIS } from '@platform/redis';
import type Redis from 'ioredis';

/**
 * The channel on which a commit of conversation events is announced to the
 * real-time gateways: `realtime:v1:outbox-committed:<namespace>`. Channels
 * ignore Redis db numbers, so it carries the environment's namespace, like
 * the standings' and the transport's.
 */
export function outboxCommittedChannel(namespace: string): string {
  return `realtime:v1:outbox-committed:${namespace}`;
}

/** Injection token of the channel's name, given to WebhooksModule. */
export const OUTBOX_COMMITTED_CHANNEL = Symbol('OUTBOX_COMMITTED_CHANNEL');

/**
 * Tells every real-time gateway, once a transaction that appended
 * conversation events committed, to look at the outbox now rather than at
 * its next poll (docs/realtime.md, Where events come from).
 *
 * A nudge is a hint and carries nothing: the relay reads what is due from
 * PostgreSQL, as its poll does, so a forged nudge costs one look at the
 * outbox, and a lost one (Redis away, a gateway resubscribing) costs at most
 * one poll interval, never an event. A failed publish is therefore logged at
 * debug and never reaches the request whose change committed.
 *
 * Commits that come while a publish is under way are announced together by
 * one more publish after it, so a burst of commits costs a replica two
 * publishes at a time, and every commit is announced by a publish that
 * leaves after it.
 */
@Injectable()
export class OutboxNudges {
  private readonly logger = new Logger(OutboxNudges.name);
  private publishing = false;
  private again = false;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(OUTBOX_COMMITTED_CHANNEL) private readonly channel: string,
  ) {}

  /** Call after the commit; returns at once. */
  committed(): void {
    if (this.publishing) {
      this.again = true;
      return;
    }
    this.publishing = true;
    void this.publishWhileCommitted();
  }

  private async publishWhileCommitted(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.redis.publish(this.channel, '');
      } catch (error) {
        this.logger.debug({ err: error }, 'outbox nudge not published; the real-time relay finds the events at its next poll');
      }
    } while (this.again);
    this.publishing = false;
  }
}
