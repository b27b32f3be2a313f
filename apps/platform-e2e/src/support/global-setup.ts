import { ADMIN_DATABASE_URL, POOLER_URL_VARIABLE, prepareTemplateDatabase, startTestPooler } from '@platform/testing';

/**
 * Runs once per test run: migrate the template database every test file
 * clones. With TEST_DATABASE_POOLER=pgbouncer (`npm run test:pooled`), the apps
 * then reach PostgreSQL through PgBouncer in transaction pooling mode, as in a
 * production with many replicas; migrations stay on a direct connection.
 */
export default async function setup(): Promise<(() => Promise<void>) | void> {
  await prepareTemplateDatabase();
  const pooler = process.env.TEST_DATABASE_POOLER;
  if (!pooler) return;
  if (pooler !== 'pgbouncer') throw new Error(`TEST_DATABASE_POOLER must be pgbouncer, not ${pooler}`);
  const started = await startTestPooler(ADMIN_DATABASE_URL);
  // Test files run in child processes started after this setup: they inherit it.
  process.env[POOLER_URL_VARIABLE] = started.url;
  return () => started.stop();
}
