import { ConfigurationError, RedisClusterSeed, redisTopologyOf } from '@platform/config';
import type { TransportAuthentication } from './message-authentication';

/**
 * Where the transport runs: the Redis server and the environment namespace
 * that every channel carries.
 *
 * Redis pub/sub channels are shared by every logical database of a server
 * (a message published on db 15 reaches a subscriber on db 1), so the db
 * number of REDIS_URL does not separate two environments on one server. The
 * namespace does: two environments with different namespaces never see each
 * other's requests or replies.
 */
export interface TransportSettings {
  redisUrl: string;
  /** REDIS_CLUSTER_NODES, parsed: set, the transport's connections are cluster clients and its channels sharded. */
  redisClusterSeeds?: RedisClusterSeed[];
  namespace: string;
  /** The keys every message is signed and verified with (message-authentication.ts). */
  authentication: TransportAuthentication;
}

/** What the transport's settings are read from: the variables of BaseConfig. */
export interface TransportSettingsSource extends TransportNamespaceSource {
  NODE_ENV: string;
  REDIS_URL: string;
  REDIS_CLUSTER_NODES?: string;
  TRANSPORT_SECRET?: string;
  TRANSPORT_SECRET_ACCEPTED?: string;
  TRANSPORT_MAX_MESSAGE_AGE_MS: number;
}

/**
 * Outside production only: the key when TRANSPORT_SECRET is not set, so that
 * `npm start` and the tests' apps, which share nothing else, agree on it.
 * Production refuses it ("development-only" marks it as an example).
 */
export const DEVELOPMENT_TRANSPORT_SECRET = 'development-only transport secret, never used in production';

/**
 * The settings of an app that speaks the transport (services-api,
 * core-tenants). TRANSPORT_SECRET is required in production here rather than
 * by BaseConfig, which plugins-helpdesk reads too: that app has no part in
 * the transport and is not given its key.
 */
export function transportSettingsOf(config: TransportSettingsSource): TransportSettings {
  if (config.NODE_ENV === 'production' && !config.TRANSPORT_SECRET) {
    throw new ConfigurationError(['TRANSPORT_SECRET is missing: the key of the messages between apps, 32+ random characters, the same for services-api and core-tenants (required in production)']);
  }
  return {
    ...redisOf(config),
    namespace: transportNamespaceOf(config),
    authentication: {
      secret: config.TRANSPORT_SECRET ?? DEVELOPMENT_TRANSPORT_SECRET,
      acceptedSecret: config.TRANSPORT_SECRET_ACCEPTED,
      maxAgeMs: config.TRANSPORT_MAX_MESSAGE_AGE_MS,
    },
  };
}

/** What the namespace is derived from: TRANSPORT_NAMESPACE, else the database the app works on. */
export interface TransportNamespaceSource {
  TRANSPORT_NAMESPACE?: string;
  DATABASE_URL: string;
}

/**
 * The configured namespace, or by default the name of the app's PostgreSQL
 * database: apps that work on the same data form one environment, and
 * environments with databases of their own (the tests' throwaway databases,
 * the quick start's, a staging database) never share a namespace by accident.
 * Production sets TRANSPORT_NAMESPACE explicitly (the configuration requires it).
 */
export function transportNamespaceOf(source: TransportNamespaceSource): string {
  if (source.TRANSPORT_NAMESPACE) return source.TRANSPORT_NAMESPACE;
  const database = decodeURIComponent(new URL(source.DATABASE_URL).pathname.slice(1)) || 'postgres';
  return `db.${database}`;
}

/** The channel a request for `pattern` travels on; its reply comes back on `${channel}.reply`. */
export function requestChannel(namespace: string, pattern: string): string {
  return `${namespace}:${pattern}`;
}

export function replyChannel(namespace: string, pattern: string): string {
  return `${requestChannel(namespace, pattern)}.reply`;
}

/**
 * Reconnection delay after the n-th failed attempt: quick at first, then
 * every second, for ever. Giving up (Nest's default after `retryAttempts`)
 * would leave the app unable to reach core-tenants until it is restarted.
 */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(100 * attempt, 1_000);
}

function redisOf(config: TransportSettingsSource): Pick<TransportSettings, 'redisUrl' | 'redisClusterSeeds'> {
  const { url, clusterSeeds } = redisTopologyOf(config);
  return clusterSeeds ? { redisUrl: url, redisClusterSeeds: clusterSeeds } : { redisUrl: url };
}
