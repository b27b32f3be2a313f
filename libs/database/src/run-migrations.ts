import { createDataSource } from './data-source';

/** Any constant: the advisory lock that lets exactly one process migrate at a time. */
const MIGRATION_LOCK_KEY = 846_100_001;

/**
 * Applies pending migrations under a Postgres advisory lock, so that several
 * processes started together (replicas, CI jobs) never race: the others wait,
 * then find nothing left to do. Returns the names of the migrations applied.
 */
export async function runMigrations(databaseUrl: string): Promise<string[]> {
  const dataSource = createDataSource({ url: databaseUrl, poolSize: 2, applicationName: 'migrations' });
  await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((migration) => migration.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await runner.release();
    await dataSource.destroy();
  }
}
