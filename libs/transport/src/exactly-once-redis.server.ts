import { RedisContext, ServerRedis } from '@nestjs/microservices';
import type { PlatformMetrics } from '@platform/observability';
import type Redis from 'ioredis';
import { MessageAuthenticator, parseChannelMessage } from './message-authentication';
import { clusterConnection } from './cluster-connection';
import { IncomingMessages } from './message-headers';

import { RefusedMessages } from './refused-messages';
import { runInTransportRequest } from './transport-request-scope';
import { reconnectDelayMs, replyChannel, requestChannel, TransportSettings } from './transport-settings';

/** How long a claim on a request id is kept: far longer than any caller waits. */
const CLAIM_TTL_MS = 10 * 60 * 1000;

type ServerOptions = ConstructorParameters<typeof ServerRedis>[0];

/**
 * Nest's Redis transport server, with these changes:
 *
 * - Every request must carry a valid MAC made with the apps' shared key, be
 *   signed for the channel it arrived on and be recent
 *   (message-authentication.ts). Anything else is dropped before the claim,
 *   counted and logged (refused-messages.ts): whoever can publish on Redis
 *   cannot make core-tenants act or answer. Replies are signed the same way.
 * - Exactly one replica handles each request. The transport is
 *   publish/subscribe: every replica of the listening app receives every
 *   request, and would run handlers with side effects (removing a connection,
 *   creating a VM) once per replica. Each replica first claims the request id
 *   with an atomic `SET NX`; the one that wins handles it and answers, the
 *   others stay silent. The claim is the fast path only: whoever can write
 *   Redis can delete it, so a handler that writes also records the request
 *   id in PostgreSQL, in the transaction of its change (the id is in scope:
 *   `currentTransportRequest`), and a second run of the id changes nothing
 *   (docs/transport.md, Exactly once).
 * - Every channel carries the environment's namespace (transport-settings.ts),
 *   so another environment on the same Redis server is never heard or answered.
 * - It reconnects for ever after a Redis outage instead of giving up.
 * - A message is handled under the request id and trace context it carries
 *   (message-headers.ts).
 *
 * Inside the seal, the packet is Nest's own.
 */
export class ExactlyOnceRedisServer extends ServerRedis {
  private readonly channelPrefix: string;
  private readonly authenticator: MessageAuthenticator;
  private readonly refusals: RefusedMessages;

  constructor(
    private readonly settings: TransportSettings,
    options: ServerOptions,
    metrics: PlatformMetrics,
  ) {
    super(options);
    this.channelPrefix = requestChannel(settings.namespace, '');
    this.authenticator = new MessageAuthenticator(settings.authentication);
    this.refusals = new RefusedMessages(metrics);
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

  /** On a cluster, a cluster client whose channels are sharded (libs/redis); on one server, Nest's own. */
  override async createRedisClient(): Promise<Redis> {
    const cluster = clusterConnection(this.settings, 'transport-listener', (attempt) => this.createRetryStrategy(attempt));
    return cluster ?? super.createRedisClient();
  }

  /** The Redis connections (publisher, subscriber) once listening, for readiness. */
  connections(): Redis[] {
    return this.pubClient && this.subClient ? [this.pubClient, this.subClient] : [];
  }

  override async handleMessage(channel: string, buffer: string, pub: Redis, pattern: string): Promise<unknown> {
    // Handlers are registered under the bare pattern; the namespace lives on the channel only.
    if (!channel.startsWith(this.channelPrefix)) return undefined;
    const messagePattern = channel.slice(this.channelPrefix.length);
    // Verified before anything else, the claim included: a forged message must not even use up a request id.
    const opened = this.authenticator.open('request', channel, parseChannelMessage(buffer));
    if (!opened.ok) {
      this.refusals.refused('request', opened.reason, channel);
      return undefined;
    }
    const requestID = requestIdOf(opened.packet);
    if (requestID !== undefined) {
      // The claim also refuses a genuine message replayed within its age limit: its id is taken.
      const claimed = await pub.set(`transport:v1:claim:${this.settings.namespace}:${requestID}`, '1', 'PX', CLAIM_TTL_MS, 'NX');
      if (claimed !== 'OK') return undefined;
    }
    // Nest reads the packet from the text it is given: the verified one, re-serialised for it alone.
    const handle = () => super.handleMessage(messagePattern, JSON.stringify(opened.packet), pub, pattern === channel ? messagePattern : pattern);
    return requestID === undefined ? handle() : runInTransportRequest({ id: requestID, pattern: messagePattern }, handle);
  }

  /** Nest's publisher of replies, each sealed for the reply channel it goes out on. */
  override getPublisher(pub: Redis, pattern: string, id: string): (response: object) => Promise<number> {
    const channel = this.getReplyPattern(pattern);
    return (response) => {
      const packet = this.serializer.serialize({ ...response, id });
      return pub.publish(channel, JSON.stringify(this.authenticator.seal('reply', channel, packet)));
    };
  }
}

function requestIdOf(packet: unknown): string | undefined {
  const id = (packet as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id : undefined;
}
