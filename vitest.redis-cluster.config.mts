import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.mjs';

/**
 * The suites that use Redis beyond plain keys, again on a real Redis Cluster
 * (`npm run test:redis-cluster`, docs/testing.md): every app gets
 * REDIS_CLUSTER_NODES from TEST_REDIS_CLUSTER_NODES, the seeds of a cluster
 * started by tools/redis-cluster/cluster.sh. The failover spec starts and
 * kills a cluster of its own, so it never disturbs the others.
 */
export const REDIS_CLUSTER_SUITES = [
  'apps/platform-e2e/src/access/authentication.e2e-spec.ts',
  'apps/platform-e2e/src/access/cache-integrity.e2e-spec.ts',
  'apps/platform-e2e/src/transport/transport.e2e-spec.ts',
  // transport-authentication's key rotation sends the moment an app is up: the transport must wait for both its connections.
  'apps/platform-e2e/src/transport/transport-authentication.e2e-spec.ts',
  'apps/platform-e2e/src/transport/transport-environments.e2e-spec.ts',
  'apps/platform-e2e/src/team/removal-across-replicas.e2e-spec.ts',
  'apps/platform-e2e/src/rate-limits/**/*.e2e-spec.ts',
  'apps/platform-e2e/src/realtime/**/*.e2e-spec.ts',
  'apps/platform-e2e/src/cluster/**/*.spec.ts',
  'apps/platform-e2e/src/redis-cluster/**/*.e2e-spec.ts',
];

if (!process.env.TEST_REDIS_CLUSTER_NODES) {
  throw new Error('TEST_REDIS_CLUSTER_NODES is not set: start a cluster with `tools/redis-cluster/cluster.sh start` and pass the seeds it prints (docs/testing.md)');
}

/**
 * A cluster has database 0 only, which every file empties when it starts: a worker needs a cluster of its own.
 * TEST_REDIS_CLUSTER_NODES lists one per worker, separated by `;` (libs/test-support/src/test-redis.ts).
 */
const clusters = process.env.TEST_REDIS_CLUSTER_NODES.split(';').filter((seeds) => seeds.trim()).length;

export default mergeConfig(
  { ...base, test: { ...base.test, include: [], exclude: [] } },
  defineConfig({ test: { include: REDIS_CLUSTER_SUITES, exclude: ['apps/platform-e2e/src/faults/**'], fileParallelism: clusters > 1, maxWorkers: clusters } }),
);
