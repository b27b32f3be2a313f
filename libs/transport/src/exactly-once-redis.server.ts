import { RedisContext, ServerRedis } from '@nestjs/microservices';
import type Redis from 'ioredis';
import { IncomingMessages } from './message-headers';
import { reconnectDelayMs, replyChannel, requestChannel, TransportSettings } from './transport-settings';

/** How long a claim on a request id is kept: far longer than any caller waits. */
const CLAIM_TTL_MS = 10 * 60 * 1000;

type ServerOptions = ConstructorParameters<typeof ServerRedis>[0];

/**
 * Nest's Redis transport server, with three changes:
 *
 * - Exactly one replica handles each request. The transport is
 *   publish/subscribe: every replica of the listening app receives every
 *   request, and would run handlers with side effects (removing a connection,
 *   creating a VM) once per replica. Each replica first claims the request id
 *   with an atomic `SET NX`; the one that wins handles it and answers, the
 *   others stay silent.
 * - Every channel carries the environment's namespace (transport-settings.ts),
 *   so another environment on the same Redis server is never heard or answered.
 * - It reconnects for ever after a Redis outage instead of giving up.
 * - A message is handled under the request id and trace context it carries
 *   (message-headers.ts).
 *
 * The wire format is Nest's own.
 */
export class ExactlyOnceRedisServer extends ServerRedis {
  private readonly channelPrefix: string;

  constructor(
    private readonly settings: TransportSettings,
    options: ServerOptions,
  ) {
    super(options);
    this.channelPrefix = requestChannel(settings.namespace, '');
    const messages = new IncomingMessages();
    this.setOnProcessingStartHook((_transport, context, handle) => messages.start(context as RedisContext, handle));
    this.setOnProcessingEndHook((_transport, context) => messages.end(context as RedisContext));
  }

  override getRequestPattern(pattern: string): string {
    return requestChannel(this.settings.namespace, pattern);
  }

  override getReplyPattern(pattern: string): string {
    return replyChannel(this.settings.namespace, pattern);
  }

  override createRetryStrategy(attempt: number): number | undefined {
    return this.isManuallyClosed ? undefined : reconnectDelayMs(attempt);
  }

  /** The Redis connections (publisher, subscriber) once listening, for readiness. */
  connections(): Redis[] {
    return this.pubClient && this.subClient ? [this.pubClient, this.subClient] : [];
  }

  override async handleMessage(channel: string, buffer: string, pub: Redis, pattern: string): Promise<unknown> {
    // Handlers are registered under the bare pattern; the namespace lives on the channel only.
    if (!channel.startsWith(this.channelPrefix)) return undefined;
    const messagePattern = channel.slice(this.channelPrefix.length);
    const requestId = this.requestIdOf(buffer);
    if (requestId !== undefined) {
      const claimed = await pub.set(`transport:v1:claim:${this.settings.namespace}:${requestId}`, '1', 'PX', CLAIM_TTL_MS, 'NX');
      if (claimed !== 'OK') return undefined;
    }
    return super.handleMessage(messagePattern, buffer, pub, pattern === channel ? messagePattern : pattern);
  }

  private requestIdOf(buffer: string): string | undefined {
    const message = this.parseMessage(buffer) as { id?: unknown } | string;
    return typeof message === 'object' && message !== null && typeof message.id === 'string' ? message.id : undefined;
  }
}
