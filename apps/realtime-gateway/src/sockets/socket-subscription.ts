import { Injectable } from '@nestjs/common';
import { TenantStreams } from '../streams/tenant-streams';
import { ClientFrame } from './frames';
import { StreamFanOut } from './stream-fan-out';
import { Subscriber } from './subscriber';

/** Entries one replay read takes. */
const REPLAY_BATCH = 500;

export type SubscribeFrame = Exclude<ClientFrame, { type: 'ping' } | { type: 'activity' }>;

/** A socket's `subscribe` or `resume` (docs/realtime.md, Resume): the replay of the window, then live delivery. */
@Injectable()
export class SocketSubscription {
  constructor(
    private readonly fanOut: StreamFanOut,
    private readonly streams: TenantStreams,
  ) {}

  /**
   * Starts delivery: from now (`subscribe`), or after the client's last
   * offset (`resume`) when that offset is still in the same stream and what
   * follows it still in the window (TenantStreams.resumableAfter); otherwise
   * `resync-required` and delivery from now.
   */
  async subscribe(subscriber: Subscriber, frame: SubscribeFrame): Promise<void> {
    const tenantID = subscriber.identity.tenantID;
    subscriber.state = 'catching-up';
    // Joined first, so that what arrives while the window is replayed is held back, not lost.
    await this.fanOut.join(subscriber);
    const epoch = await this.streams.epochOf(tenantID);
    subscriber.epoch = epoch;
    const resumable = frame.type === 'resume' && frame.epoch === epoch && (await this.streams.resumableAfter(tenantID, frame.offset));
    if (frame.type === 'resume' && !resumable) {
      subscriber.offset = await this.streams.lastOffset(tenantID);
      subscriber.send({ type: 'resync-required', epoch, offset: subscriber.offset });
    } else if (frame.type === 'resume') {
      subscriber.offset = frame.offset;
      subscriber.send({ type: 'subscribed', epoch, offset: frame.offset });
      await this.replay(subscriber);
    } else {
      subscriber.offset = await this.streams.lastOffset(tenantID);
      subscriber.send({ type: 'subscribed', epoch, offset: subscriber.offset });
    }
    subscriber.goLive();
  }

  /** A subscription that failed half-way (Redis away) starts over: the client may subscribe or resume again. */
  abandon(subscriber: Subscriber): void {
    if (subscriber.state !== 'catching-up') return;
    this.fanOut.leave(subscriber);
    subscriber.state = 'idle';
  }

  /** Delivers the stream after the subscriber's offset, up to its tail, as fast as the client reads it. */
  private async replay(subscriber: Subscriber): Promise<void> {
    let from = subscriber.offset;
    for (;;) {
      if (subscriber.state !== 'catching-up') return;
      const { entries, last } = await this.streams.after(subscriber.identity.tenantID, from, REPLAY_BATCH);
      for (const entry of entries) {
        subscriber.deliver(entry);
        if (!(await subscriber.drained())) return;
      }
      if (last === from) return;
      from = last;
    }
  }
}
