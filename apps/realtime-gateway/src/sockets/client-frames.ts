import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppException, toAppException } from '@platform/errors';
import { SocketLeases } from '../presence/socket-leases';
import { ChannelRequestForwarder } from './channel-request-forwarder';
import { CLOSE_CODES, parseClientFrame } from './frames';
import { SOCKET_SETTINGS, SocketSettings } from './socket-settings';
import { SocketSubscription } from './socket-subscription';
import { Subscriber } from './subscriber';

/** The window the frame limit counts over (docs/realtime.md#limits). */
const FRAME_WINDOW_MS = 10_000;

/** A client's frames: the frame limit, then ping, activity, a request, or a subscription. */
@Injectable()
export class ClientFrames {
  private readonly logger = new Logger(ClientFrames.name);

  constructor(
    private readonly subscription: SocketSubscription,
    private readonly requests: ChannelRequestForwarder,
    private readonly leases: SocketLeases,
    @Inject(SOCKET_SETTINGS) private readonly settings: Pick<SocketSettings, 'maxFramesPer10s'>,
  ) {}

  /** One frame; `text` is undefined for a binary frame. */
  async received(subscriber: Subscriber, text: string | undefined): Promise<void> {
    subscriber.alive = true;
    const now = Date.now();
    if (now - subscriber.windowStartedAtMs >= FRAME_WINDOW_MS) {
      subscriber.windowStartedAtMs = now;
      subscriber.framesInWindow = 0;
    }
    if (++subscriber.framesInWindow > this.settings.maxFramesPer10s) return subscriber.close(CLOSE_CODES.tooManyFrames, 'too many frames');
    try {
      if (text === undefined) throw AppException.validation([{ field: 'frame', received: 'binary', allowed: 'a JSON text frame' }]);
      const frame = parseClientFrame(text);
      if (frame.type === 'ping') return subscriber.send({ type: 'pong' });
      if (frame.type === 'activity') return this.activity(subscriber);
      // A request (docs/realtime.md, Requests over the socket) is answered on its own, whatever the delivery's state.
      if ('requestID' in frame) return void this.requests.handle(subscriber, frame);
      if (subscriber.state !== 'idle') throw AppException.validation([{ field: 'type', received: frame.type, allowed: 'ping or a request (the socket is subscribed already)' }]);
      await this.subscription.subscribe(subscriber, frame);
    } catch (error) {
      const refusal = toAppException(error);
      if (!refusal) this.logger.error({ err: error }, 'socket frame failed');
      subscriber.send({ type: 'error', error: (refusal ?? new AppException('Unknown')).toBody() });
      this.subscription.abandon(subscriber);
    }
  }

  /**
   * The client's user was active (docs/presence.md): the socket's own lease
   * carries it, and nothing else. Only an operator's socket has a lease.
   */
  private activity(subscriber: Subscriber): void {
    if (subscriber.identity.principal.kind !== 'operator') throw AppException.validation([{ field: 'type', received: 'activity', allowed: 'activity from an operator\'s socket' }]);
    this.leases.active(subscriber.id);
  }
}
