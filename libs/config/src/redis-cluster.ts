import { ValidateBy, ValidationArguments } from 'class-validator';

/** One seed of REDIS_CLUSTER_NODES. */
export interface RedisClusterSeed {
  host: string;
  port: number;
}

const SEED = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9][A-Za-z0-9.-]*)):(\d{1,5})$/;

const CLUSTER_NODES_RULE =
  'must be a comma-separated list of host:port seeds of the Redis Cluster (e.g. redis-0:6379,redis-1:6379); leave it unset for a single Redis';

/** The seeds of REDIS_CLUSTER_NODES, or undefined when one entry is not host:port. */
export function parseRedisClusterNodes(value: string): RedisClusterSeed[] | undefined {
  const entries = value.split(',').map((entry) => entry.trim()).filter(Boolean);
  if (entries.length === 0) return undefined;
  const seeds: RedisClusterSeed[] = [];
  for (const entry of entries) {
    const match = SEED.exec(entry);
    const port = match ? Number(match[3]) : 0;
    if (!match || port < 1 || port > 65_535) return undefined;
    seeds.push({ host: match[1] ?? match[2]!, port });
  }
  return seeds;
}

/** The logical database a Redis URL names: 0 when it names none, NaN when its path is not a number. */
export function redisUrlDatabase(url: string): number {
  try {
    const path = new URL(url).pathname.slice(1);
    return path === '' ? 0 : /^\d+$/.test(path) ? Number(path) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** REDIS_CLUSTER_NODES: well-formed seeds. */
export function IsRedisClusterNodes(): PropertyDecorator {
  return ValidateBy({
    name: 'isRedisClusterNodes',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && parseRedisClusterNodes(value) !== undefined,
      defaultMessage: () => CLUSTER_NODES_RULE,
    },
  });
}

/**
 * REDIS_URL, with REDIS_CLUSTER_NODES set: a Redis Cluster has database 0
 * only (SELECT is refused), so a URL naming another one is refused at boot
 * rather than silently writing to database 0 beside whatever is there.
 */
export function NamesDatabaseZeroWithCluster(): PropertyDecorator {
  return ValidateBy({
    name: 'namesDatabaseZeroWithCluster',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) =>
        !(args?.object as { REDIS_CLUSTER_NODES?: unknown }).REDIS_CLUSTER_NODES || (typeof value === 'string' && redisUrlDatabase(value) === 0),
      defaultMessage: () =>
        'must name database 0 (or none) when REDIS_CLUSTER_NODES is set: a Redis Cluster has only database 0; its host and port are not used, its credentials and scheme (rediss:// for TLS) are',
    },
  });
}

/** Where the app's Redis is, from REDIS_URL and REDIS_CLUSTER_NODES (already validated). */
export function redisTopologyOf(config: { REDIS_URL: string; REDIS_CLUSTER_NODES?: string }): { url: string; clusterSeeds?: RedisClusterSeed[] } {
  const clusterSeeds = config.REDIS_CLUSTER_NODES ? parseRedisClusterNodes(config.REDIS_CLUSTER_NODES) : undefined;
  return clusterSeeds ? { url: config.REDIS_URL, clusterSeeds } : { url: config.REDIS_URL };
}
