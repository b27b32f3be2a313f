import { ClientRedis, CustomStrategy, ReadPacket, RedisOptions } from '@nestjs/microservices';
import type { PlatformMetrics } from '@platform/observability';
import type Redis from 'ioredis';
import { clusterConnection } from './cluster-connection';
import { ExactlyOnceRedisServer } from './exactly-once-redis.server';
import { MessageAuthenticator, parseChannelMessage } from './message-authentication';
import { attachPropagatedHeaders } from './message-headers';
import { RefusedMessages } from './refused-messages';
import { reconnectDelayMs, replyChannel, requestChannel, TransportSettings } from './transport-settings';

type RedisConnectionOptions = NonNullable<RedisOptions['options']>;

/**
 * ioredis options of the transport's connections, from REDIS_URL. Nothing
 * sent over the transport is persisted: side effects that must survive a
 * crash go through a durable job or outbox instead.
 */
export function redisConnectionOptions(redisUrl: string): RedisConnectionOptions {
  const url = new URL(redisUrl);
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : 6379,
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    db: url.pathname.length > 1 ? Number(url.pathname.slice(1)) : undefined,
    tls: url.protocol === 'rediss:' ? {} : undefined,
    // Read by Nest only to decide whether to retry at all; the delays come from reconnectDelayMs.
    retryAttempts: Number.MAX_SAFE_INTEGER,
  };
}

/**
 * The calling side (services-api): Nest's Redis client with every request
 * and reply channel in the environment's namespace, reconnecting for ever,
 * each message carrying the request id and trace context of its sender.
 * Requests go out sealed with the apps' shared key; a reply that is not
 * sealed with it, for its channel, recently, is dropped unread (counted and
 * logged), so the request times out as if no reply had come.
 */
export class NamespacedRedisClient extends ClientRedis {
  private readonly authenticator: MessageAuthenticator;
  private readonly refusals: RefusedMessages;

  constructor(
    private readonly settings: TransportSettings,
    metrics: PlatformMetrics,
  ) {
    super(redisConnectionOptions(settings.redisUrl));
    this.authenticator = new MessageAuthenticator(settings.authentication);
    this.refusals = new RefusedMessages(metrics);
    this.setOnDispatchHook(attachPropagatedHeaders);
    // Nest serialises a request packet (pattern, id, data, metadata) once, and publishes JSON.stringify of the result.
    this.serializer = {
      serialize: (packet: ReadPacket) => this.authenticator.seal('request', this.getRequestPattern(this.normalizePattern(packet.pattern)), packet),
    };
  }

  /** Nest's handling of a reply, given only the verified packet. */
  override createResponseCallback(): (channel: string, buffer: string) => Promise<void> {
    const handleVerified = super.createResponseCallback();
    return async (channel, buffer) => {
      const opened = this.authenticator.open('reply', channel, parseChannelMessage(buffer));
      if (!opened.ok) {
        this.refusals.refused('reply', opened.reason, channel);
        return;
      }
      await handleVerified(channel, JSON.stringify(opened.packet));
    };
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

  /**
   * Connected once both connections are ready. Nest settles the connection as
   * soon as either of them reports ready: a request sent before the other one
   * is would, on a cluster (whose connections refuse commands until ready,
   * having no offline queue), subscribe for its reply on a connection still
   * connecting and fail 503. A connection lost meanwhile fails the request as
   * Nest's own lost connection does.
   */
  override async connect(): Promise<unknown> {
    const connected: unknown = await super.connect();
    await Promise.all(this.connections().map(untilReady));
    return connected;
  }

  /** On a cluster, a cluster client whose channels are sharded (libs/redis); on one server, Nest's own. */
  override async createClient(): Promise<Redis> {
    const cluster = clusterConnection(this.settings, 'transport-client', (attempt) => this.createRetryStrategy(attempt));
    return cluster ?? super.createClient();
  }

  /** The Redis connections (publisher, subscriber) once connected, for readiness. */
  connections(): Redis[] {
    return this.pubClient && this.subClient ? [this.pubClient, this.subClient] : [];
  }
}

/** Statuses of a connection on its way to ready: any other than these and ready is a lost connection. */
const CONNECTING = new Set(['wait', 'connecting', 'connect']);

/** Resolves once `connection` is ready (at once if it is); rejects if it is lost, now or before it is ready. */
function untilReady(connection: Redis): Promise<void> {
  if (connection.status === 'ready') return Promise.resolve();
  if (!CONNECTING.has(connection.status)) return Promise.reject(new Error('Connection lost. Trying to reconnect...'));
  return new Promise((resolve, reject) => {
    const settle = (outcome: () => void) => () => {
      connection.off('ready', ready);
      connection.off('close', closed);
      connection.off('end', closed);
      outcome();
    };
    const ready = settle(resolve);
    const closed = settle(() => reject(new Error('Connection lost. Trying to reconnect...')));
    connection.once('ready', ready);
    connection.once('close', closed);
    connection.once('end', closed);
  });
}

/** The listening side (core-tenants): each request handled by exactly one replica, in the namespace. */
export function exactlyOnceRedisListener(settings: TransportSettings, metrics: PlatformMetrics): CustomStrategy & { strategy: ExactlyOnceRedisServer } {
  return { strategy: new ExactlyOnceRedisServer(settings, redisConnectionOptions(settings.redisUrl), metrics) };
}
