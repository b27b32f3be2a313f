import { ensureReachable, postgresDependency, redisDependency } from '@platform/config';
import { RedisCompatibleServer, startEmbeddedPostgres } from '@platform/local-services';
import { freePort } from './free-port';
import { DEFAULT_ADMIN_DATABASE_URL, DEFAULT_TEST_REDIS_URL } from '@platform/test-support';

const say = (line: string) => process.stdout.write(`[test services] ${line}\n`);

const answers = (check: Promise<void>) =>
  check.then(
    () => true,
    () => false,
  );

/**
 * Run by the tests' global setup, before any test file: PostgreSQL and Redis
 * for the tests on a machine that has neither. TEST_DATABASE_ADMIN_URL and
 * TEST_REDIS_URL (or TEST_REDIS_CLUSTER_NODES, a Redis Cluster's seeds) win; without them, the usual local servers when they answer
 * (CI has both); else an embedded PostgreSQL (data in `.data/test-postgres`)
 * and an in-memory Redis-compatible server, each announced by one line. The
 * variables are set for the test files, which start after this.
 * Returns what stops whatever was started.
 */
export async function provideTestServices(): Promise<() => Promise<void>> {
  const stops: (() => Promise<void>)[] = [];
  if (!process.env.TEST_DATABASE_ADMIN_URL && !(await answers(ensureReachable([postgresDependency(DEFAULT_ADMIN_DATABASE_URL)], 0)))) {
    const port = await freePort();
    const postgres = await startEmbeddedPostgres({ dataDir: '.data/test-postgres', port, logFile: '.data/test-postgres.log' });
    process.env.TEST_DATABASE_ADMIN_URL = postgres.url('postgres');
    stops.push(() => postgres.stop());
    say(`no PostgreSQL on 127.0.0.1:5432 and no TEST_DATABASE_ADMIN_URL: using an embedded PostgreSQL on 127.0.0.1:${port}`);
  }
  if (process.env.TEST_REDIS_CLUSTER_NODES) {
    // A cluster the run was given (`npm run test:redis-cluster`): nothing to start, and no in-memory stand-in.
    say(`Redis Cluster at ${process.env.TEST_REDIS_CLUSTER_NODES}`);
  } else if (!process.env.TEST_REDIS_URL && !(await answers(ensureReachable([redisDependency(DEFAULT_TEST_REDIS_URL)], 0)))) {
    const redis = await RedisCompatibleServer.start();
    process.env.TEST_REDIS_URL = redis.url(15);
    stops.push(() => redis.close());
    say(`no Redis on 127.0.0.1:6379 and no TEST_REDIS_URL: using an in-memory Redis-compatible server on 127.0.0.1:${redis.port}`);
  }
  return async () => {
    for (const stop of stops.reverse()) await stop();
  };
}
