import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clusterSeeds, TEST_REDIS_CLUSTER_NODES } from '@platform/testing';
import Redis, { Cluster } from 'ioredis';

const SCRIPT = join(process.cwd(), 'tools/redis-cluster/cluster.sh');

/**
 * A Redis Cluster a spec owns (tools/redis-cluster/cluster.sh on six ports of
 * its own), so it may kill nodes without touching the cluster the other
 * suites share. Its ports are the first port of the worker's shared cluster
 * plus 10 unless TEST_REDIS_FAILOVER_PORT_BASE says otherwise (CI: 7010-7015
 * or 7030-7035, beside clusters on 7000 and 7020).
 */
export class OwnCluster {
  readonly dir: string;
  private constructor(
    readonly base: number,
    readonly nodes: string,
  ) {
    this.dir = join(tmpdir(), `redis-cluster-${base}`);
  }

  static start(): OwnCluster {
    const shared = TEST_REDIS_CLUSTER_NODES ? clusterSeeds(TEST_REDIS_CLUSTER_NODES)[0].port : 7000;
    const base = Number(process.env.TEST_REDIS_FAILOVER_PORT_BASE ?? shared + 10);
    const started = run('start', base);
    return new OwnCluster(base, started.trim().split('\n').at(-1)!);
  }

  /** REDIS_URL and REDIS_CLUSTER_NODES of an app on this cluster. */
  env(): { REDIS_URL: string; REDIS_CLUSTER_NODES: string } {
    return { REDIS_URL: `redis://127.0.0.1:${this.base}/0`, REDIS_CLUSTER_NODES: this.nodes };
  }

  /** The master serving `key`'s slot now, and its replica. */
  async servingNodes(key: string): Promise<{ master: number; replica: number }> {
    const cluster = new Cluster(clusterSeeds(this.nodes), { redisOptions: { maxRetriesPerRequest: 1 } });
    try {
      const slot = Number(await cluster.cluster('KEYSLOT', key));
      const slots = (await cluster.cluster('SLOTS')) as [number, number, ...[string, number, ...unknown[]][]][];
      const [, , [, master], replica] = slots.find(([first, last]) => first <= slot && slot <= last)!;
      // A replica is listed once its replication link is up, which may follow the cluster's ok by a moment.
      if (!replica) throw new Error(`slot ${slot}'s master ${master} has no replica yet`);
      return { master: Number(master), replica: Number(replica[1]) };
    } finally {
      cluster.disconnect();
    }
  }

  /** Kills a node's process outright (SIGKILL): no shutdown, no goodbye to its clients or the cluster. */
  kill(port: number): void {
    process.kill(Number(readFileSync(join(this.dir, String(port), 'redis.pid'), 'utf8')), 'SIGKILL');
  }

  /** Whether `port` serves as a master and every node still up reports cluster_state:ok with all slots served. */
  async promotedAndOk(port: number, down: number[]): Promise<boolean> {
    const up = [0, 1, 2, 3, 4, 5].map((offset) => this.base + offset).filter((node) => !down.includes(node));
    const answers = await Promise.all(up.map((node) => ask(node, async (redis) => ({ node, role: String(((await redis.role()) as unknown[])[0]), info: String(await redis.cluster('INFO')) }))));
    return answers.every(
      (answer) =>
        answer !== undefined &&
        /cluster_state:ok/.test(answer.info) &&
        /cluster_slots_ok:16384/.test(answer.info) &&
        (answer.node !== port || answer.role === 'master'),
    );
  }

  stop(): void {
    run('stop', this.base);
  }
}

function run(command: string, base: number): string {
  const result = spawnSync('bash', [SCRIPT, command], { env: { ...process.env, REDIS_CLUSTER_PORT_BASE: String(base) }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`cluster.sh ${command} on ${base} failed: ${result.stderr}`);
  return result.stdout;
}

/** A node's answer, or undefined while it cannot give one. */
async function ask<T>(port: number, question: (redis: Redis) => Promise<T>): Promise<T | undefined> {
  const redis = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 0, lazyConnect: true, retryStrategy: () => null });
  try {
    await redis.connect();
    return await question(redis);
  } catch {
    return undefined;
  } finally {
    redis.disconnect();
  }
}
