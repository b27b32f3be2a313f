import Redis, { Cluster, RedisOptions } from 'ioredis';

/**
 * Redis for tests: a logical database per Vitest worker, emptied when a test
 * file starts. The first worker has database 15 (or the one TEST_REDIS_URL
 * names), the second 13, and so on two apart: each worker also owns the
 * database just below its own (TEST_REDIS_SPARE_URL), for a spec that needs
 * a second environment. Two files running at once therefore never see each
 * other's keys or streams; their pub/sub channels, which Redis does not
 * scope by database, are apart already, because every channel name carries
 * the transport namespace, which is the file's own PostgreSQL database.
 *
 * With TEST_REDIS_CLUSTER_NODES (comma-separated host:port seeds of a Redis
 * Cluster, `npm run test:redis-cluster`), the apps get REDIS_CLUSTER_NODES
 * and the tests' own clients are cluster clients. A cluster has database 0
 * only, so a file starts with FLUSHALL on every master rather than a FLUSHDB
 * of its own database, and each worker needs a cluster of its own: the
 * variable may list several clusters, separated by `;`, the first worker's
 * first. That is the same isolation without a key prefix the apps would have
 * to know about.
 */
export const DEFAULT_TEST_REDIS_URL = 'redis://127.0.0.1:6379/15';

/** This worker's place in the run: Vitest numbers the workers from 1 in VITEST_POOL_ID (the global setup has none: 0). */
function workerIndex(): number {
  return Math.max(Number(process.env.VITEST_POOL_ID ?? '1') - 1, 0);
}

/** This worker's cluster's seeds, or undefined when the tests run on a single Redis. */
export const TEST_REDIS_CLUSTER_NODES = workerCluster(process.env.TEST_REDIS_CLUSTER_NODES);

function workerCluster(clusters: string | undefined): string | undefined {
  if (!clusters) return undefined;
  const list = clusters
    .split(';')
    .map((seeds) => seeds.trim())
    .filter(Boolean);
  const cluster = list[workerIndex()];
  if (!cluster) throw new Error(`test Redis: worker ${workerIndex() + 1} has no cluster of its own: TEST_REDIS_CLUSTER_NODES lists ${list.length}`);
  return cluster;
}

/** How many databases a worker owns: its own and a spare just below it. */
const DATABASES_PER_WORKER = 2;

/**
 * This worker's database on a single server; on a cluster, its first seed
 * (database 0): what REDIS_URL names beside REDIS_CLUSTER_NODES.
 */
export const TEST_REDIS_URL = TEST_REDIS_CLUSTER_NODES ? firstSeedUrl(TEST_REDIS_CLUSTER_NODES) : workerDatabaseUrl(process.env.TEST_REDIS_URL ?? DEFAULT_TEST_REDIS_URL, 0);

/** The database below this worker's, for a second environment on the same server (single server only). */
export const TEST_REDIS_SPARE_URL = TEST_REDIS_CLUSTER_NODES ? undefined : workerDatabaseUrl(process.env.TEST_REDIS_URL ?? DEFAULT_TEST_REDIS_URL, 1);

/** The run's base database (the first worker's), moved down by the worker's place. */
function workerDatabaseUrl(base: string, offset: number): string {
  const url = new URL(base);
  const baseDatabase = Number(url.pathname.slice(1) || '0');
  const worker = workerIndex();
  const database = baseDatabase - worker * DATABASES_PER_WORKER - offset;
  if (!Number.isInteger(database) || database < 0) {
    throw new Error(`test Redis: worker ${worker + 1} of a run based on database ${baseDatabase} has no database left (databases count down from the base, ${DATABASES_PER_WORKER} per worker)`);
  }
  url.pathname = `/${database}`;
  return url.toString();
}

function firstSeedUrl(nodes: string): string {
  const [{ host, port }] = clusterSeeds(nodes);
  return `redis://${host}:${port}/0`;
}

/** A client of the tests' Redis as the apps see it: a cluster client on a cluster. */
export type TestRedis = Redis | Cluster;

export function clusterSeeds(nodes: string): { host: string; port: number }[] {
  return nodes
    .split(',')
    .map((seed) => seed.trim())
    .filter(Boolean)
    .map((seed) => {
      const at = seed.lastIndexOf(':');
      return { host: seed.slice(0, at), port: Number(seed.slice(at + 1)) };
    });
}

/** The Redis variables every app of a test platform is started with. */
export function testRedisEnv(): { REDIS_URL: string; REDIS_CLUSTER_NODES?: string } {
  return TEST_REDIS_CLUSTER_NODES ? { REDIS_URL: TEST_REDIS_URL, REDIS_CLUSTER_NODES: TEST_REDIS_CLUSTER_NODES } : { REDIS_URL: TEST_REDIS_URL };
}

/**
 * A client of the tests' Redis: `new Redis(TEST_REDIS_URL)` on a single
 * server. On a cluster, a `Cluster` whose publish and subscribe are the
 * sharded ones, as the apps' clients are there (a channel lives on its slot's
 * master, and a plain PUBLISH never reaches an SSUBSCRIBE): a spec that
 * listens to or forges the apps' messages reaches them as it does on one server.
 */
export function createTestRedis(options: RedisOptions = {}): TestRedis {
  if (!TEST_REDIS_CLUSTER_NODES) return new Redis(TEST_REDIS_URL, options);
  const cluster = new Cluster(clusterSeeds(TEST_REDIS_CLUSTER_NODES), { redisOptions: options, shardedSubscribers: true });
  cluster.on('smessage', (channel: string, message: string) => cluster.emit('message', channel, message));
  return Object.assign(cluster, {
    publish: (channel: string, message: string) => cluster.spublish(channel, message),
    subscribe: (...channels: string[]) => cluster.ssubscribe(...channels),
    unsubscribe: (...channels: string[]) => cluster.sunsubscribe(...channels),
  }) as TestRedis;
}

/**
 * One plain client per node of the tests' Redis, for what is per node (CLIENT
 * LIST, FLUSHALL, PUBSUB NUMSUB): the server itself on a single server; on a
 * cluster every master, and with `replicas` every replica too. The caller
 * disconnects them.
 */
export async function testRedisNodes(options: RedisOptions = {}, { replicas = false } = {}): Promise<Redis[]> {
  if (!TEST_REDIS_CLUSTER_NODES) return [new Redis(TEST_REDIS_URL, options)];
  const cluster = new Cluster(clusterSeeds(TEST_REDIS_CLUSTER_NODES), { redisOptions: options });
  try {
    // CLUSTER SLOTS: [first slot, last slot, master [host, port, id], ...replicas]
    const slots = (await cluster.cluster('SLOTS')) as [number, number, ...[string, number, ...unknown[]][]][];
    const nodes = new Map<string, { host: string; port: number }>();
    for (const [, , ...served] of slots) {
      for (const [host, port] of replicas ? served : served.slice(0, 1)) nodes.set(`${host}:${port}`, { host, port });
    }
    return [...nodes.values()].map(({ host, port }) => new Redis({ ...options, host, port }));
  } finally {
    cluster.disconnect();
  }
}

/**
 * How many connections listen on `channel`, plain or sharded, over every node:
 * on a cluster a subscriber is counted only by the node it is connected to.
 */
export async function testRedisSubscribers(channel: string): Promise<number> {
  const nodes = await testRedisNodes({ maxRetriesPerRequest: 1 }, { replicas: true });
  try {
    const counts = await Promise.all(
      nodes.map(async (node) => {
        const [, plain] = (await node.pubsub('NUMSUB', channel)) as [string, number];
        // Only a cluster's subscribers are sharded; the in-memory server of the pass without services knows no SHARDNUMSUB.
        if (!TEST_REDIS_CLUSTER_NODES) return Number(plain);
        const [, sharded] = (await node.call('PUBSUB', 'SHARDNUMSUB', channel)) as [string, number];
        return Number(plain) + Number(sharded);
      }),
    );
    return counts.reduce((sum, count) => sum + count, 0);
  } finally {
    for (const node of nodes) node.disconnect();
  }
}

export async function resetTestRedis(): Promise<void> {
  if (!TEST_REDIS_CLUSTER_NODES) {
    const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    try {
      await redis.flushdb();
    } finally {
      redis.disconnect();
    }
    return;
  }
  const masters = await testRedisNodes({ maxRetriesPerRequest: 1 });
  try {
    await Promise.all(masters.map((master) => master.flushall()));
  } finally {
    for (const master of masters) master.disconnect();
  }
}
