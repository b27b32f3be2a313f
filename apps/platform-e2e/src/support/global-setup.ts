import { adminDatabaseUrl, POOLER_URL_VARIABLE, prepareTemplateDatabase, provideTestServices, startTestPooler } from '@platform/testing';

/**
 * Runs once per test run: PostgreSQL and Redis for the tests (the machine's,
 * or embedded ones where it has none), then the migrated template database
 * every test file clones. With TEST_DATABASE_POOLER=pgbouncer (`npm run
 * test:pooled`), the apps then reach PostgreSQL through PgBouncer in
 * transaction pooling mode, as in a production with many replicas;
 * migrations stay on a direct connection. Returns the teardown.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const stopTestServices = await provideTestServices();
  await prepareTemplateDatabase();
  const pooler = process.env.TEST_DATABASE_POOLER;
  if (!pooler) return stopTestServices;
  if (pooler !== 'pgbouncer') throw new Error(`TEST_DATABASE_POOLER must be pgbouncer, not ${pooler}`);
  const started = await startTestPooler(adminDatabaseUrl());
  // Test files run in child processes started after this setup: they inherit it.
  process.env[POOLER_URL_VARIABLE] = started.url;
  return async () => {
    await started.stop();
    await stopTestServices();
  };
}
