import { createRedisClient } from '@platform/redis';
import type Redis from 'ioredis';
import type { TransportSettings } from './transport-settings';

/**
 * A connection of the transport when REDIS_CLUSTER_NODES is set: made by the
 * platform's one factory, so it authenticates as every other client does and
 * publishes and subscribes on sharded channels. Undefined on one server,
 * where Nest makes its own connection from redisConnectionOptions.
 */
export function clusterConnection(settings: TransportSettings, connectionName: string, retryStrategy: (attempt: number) => number | undefined): Redis | undefined {
  if (!settings.redisClusterSeeds) return undefined;
  return createRedisClient({ url: settings.redisUrl, clusterSeeds: settings.redisClusterSeeds }, connectionName, { lazyConnect: true, retryStrategy });
}
