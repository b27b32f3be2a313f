import Redis, { Cluster, ClusterOptions, RedisOptions } from 'ioredis';

/** Where Redis is: the single server of a URL, or a Redis Cluster reached through seeds. */
export interface RedisTopology {
  /** REDIS_URL: the server when no seeds are given; with seeds, only its credentials and scheme are used. */
  url: string;
  /** REDIS_CLUSTER_NODES, parsed: set, every connection is a cluster client. */
  clusterSeeds?: { host: string; port: number }[];
}

/** What a caller may change about one connection. */
export interface ConnectionOverrides {
  lazyConnect?: boolean;
  /** Delay before reconnection attempt n; undefined stops reconnecting. */
  retryStrategy?: (attempt: number) => number | undefined;
  autoResubscribe?: boolean;
}

/** Reconnect for ever, at most a second apart, so service resumes within a second of Redis returning. */
const reconnectWithinASecond = (attempt: number) => Math.min(100 * attempt, 1_000);

export function isClustered(topology: RedisTopology): boolean {
  return (topology.clusterSeeds?.length ?? 0) > 0;
}

/**
 * A client of the configured Redis. On a cluster it is an ioredis `Cluster`
 * typed as `Redis`: the commands the platform sends are the same, and the few
 * calls that differ (a second connection, the masters) go through
 * duplicateConnection and masterConnections below.
 */
export function createRedisClient(topology: RedisTopology, connectionName: string, overrides: ConnectionOverrides = {}): Redis {
  const retryStrategy = overrides.retryStrategy ?? reconnectWithinASecond;
  if (!isClustered(topology)) {
    return new Redis(topology.url, {
      connectionName,
      // While Redis is away, commands fail at once instead of waiting in a queue
      // for the next reconnection attempt: callers fall back to PostgreSQL where
      // they can, and answer 503 5903 in the envelope where they cannot.
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      connectTimeout: 2_000,
      retryStrategy,
      ...(overrides.lazyConnect !== undefined && { lazyConnect: overrides.lazyConnect }),
      ...(overrides.autoResubscribe !== undefined && { autoResubscribe: overrides.autoResubscribe }),
    });
  }
  return new ShardedPubSubCluster(topology.clusterSeeds!, {
    clusterRetryStrategy: (attempt) => retryStrategy(attempt) ?? null,
    enableOfflineQueue: false,
    // Channels are placed on the master of their slot (SSUBSCRIBE), one subscriber connection per master.
    shardedSubscribers: true,
    lazyConnect: overrides.lazyConnect ?? false,
    ...(overrides.autoResubscribe !== undefined && { autoResubscribe: overrides.autoResubscribe }),
    redisOptions: { ...credentialsOf(topology.url), connectionName, maxRetriesPerRequest: 1, connectTimeout: 2_000 },
  }) as unknown as Redis;
}

/** The user, password and TLS of REDIS_URL, which every node of a cluster is reached with. */
function credentialsOf(redisUrl: string): Pick<RedisOptions, 'username' | 'password' | 'tls'> {
  const url = new URL(redisUrl);
  return {
    ...(url.username && { username: decodeURIComponent(url.username) }),
    ...(url.password && { password: decodeURIComponent(url.password) }),
    ...(url.protocol === 'rediss:' && { tls: {} }),
  };
}

/**
 * A cluster client whose publish and subscribe are the sharded ones: a
 * channel lives on the master of its slot, instead of every message being
 * broadcast to every node of the cluster. Callers written for one server
 * (Nest's transport, the subscribers of revocations and nudges) publish,
 * subscribe and listen to `message` unchanged.
 */
class ShardedPubSubCluster extends Cluster {
  constructor(
    private readonly seeds: { host: string; port: number }[],
    private readonly clusterOptions: ClusterOptions,
  ) {
    super(seeds, clusterOptions);
    this.on('smessage', (channel: string, message: string) => this.emit('message', channel, message));
  }

  override duplicate(overrideStartupNodes: { host: string; port: number }[] = [], overrideOptions: ClusterOptions = {}): Cluster {
    const seeds = overrideStartupNodes.length > 0 ? overrideStartupNodes : this.seeds;
    return new ShardedPubSubCluster(seeds, { ...this.clusterOptions, ...overrideOptions, redisOptions: { ...this.clusterOptions.redisOptions, ...overrideOptions.redisOptions } });
  }
}
// Assigned on the prototype: the commands are overloaded, and each call passes its arguments through as given.
Object.assign(ShardedPubSubCluster.prototype, {
  publish(this: Cluster, ...args: unknown[]) {
    return (this.spublish as (...a: unknown[]) => unknown)(...args);
  },
  subscribe(this: Cluster, ...args: unknown[]) {
    return (this.ssubscribe as (...a: unknown[]) => unknown)(...args);
  },
  unsubscribe(this: Cluster, ...args: unknown[]) {
    return (this.sunsubscribe as (...a: unknown[]) => unknown)(...args);
  },
});

export function isClusterClient(client: Redis): boolean {
  return client instanceof Cluster || (client as unknown) instanceof Cluster;
}

/** The connection name the client was made with. */
export function connectionNameOf(client: Redis, fallback: string): string {
  const options = isClusterClient(client) ? (client as unknown as Cluster).options.redisOptions : client.options;
  return options?.connectionName ?? fallback;
}

/** A second connection to the same Redis (a subscriber, a blocking reader), under its own name. */
export function duplicateConnection(client: Redis, connectionName: string, overrides: Pick<ConnectionOverrides, 'autoResubscribe'> = {}): Redis {
  if (!isClusterClient(client)) return client.duplicate({ connectionName, ...overrides });
  const cluster = client as unknown as Cluster;
  return cluster.duplicate([], { ...overrides, redisOptions: { ...cluster.options.redisOptions, connectionName } }) as unknown as Redis;
}

/**
 * The connections a command for every key must go to (SCAN): each master of
 * a cluster, or the one server.
 */
export function masterConnections(client: Redis): Redis[] {
  return isClusterClient(client) ? (client as unknown as Cluster).nodes('master') : [client];
}
