import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { createDataSource } from './data-source';

/** Any constant: the advisory lock that lets exactly one process migrate at a time. */
const MIGRATION_LOCK_KEY = 846_100_001;

/**
 * Applies pending migrations under a Postgres advisory lock, so that several
 * processes started together (replicas, CI jobs) never race: the others wait,
 * then find nothing left to do. Returns the names of the migrations applied.
 * `progress`, when given, hears one line as each pending migration starts
 * ("3/12 HelpdeskDomains1764100000000"), so a long first migration shows how
 * far it got.
 */
export async function runMigrations(databaseUrl: string, progress?: (line: string) => void): Promise<string[]> {
  const dataSource = createDataSource({ url: databaseUrl, poolSize: 2, applicationName: 'migrations' });
  await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      if (progress) await reportEachPending(dataSource, runner, progress);
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

/** Wraps each pending migration's `up` to announce it first (read under the lock, so the list is final). */
async function reportEachPending(dataSource: DataSource, runner: QueryRunner, progress: (line: string) => void): Promise<void> {
  const table = dataSource.options.migrationsTableName ?? 'migrations';
  const executed = new Set<string>(
    (await runner.hasTable(table)) ? ((await runner.query(`SELECT name FROM "${table}"`)) as { name: string }[]).map((row) => row.name) : [],
  );
  const nameOf = (migration: MigrationInterface) => migration.name ?? migration.constructor.name;
  const pending = dataSource.migrations.filter((migration) => !executed.has(nameOf(migration)));
  pending.forEach((migration, index) => {
    const up = migration.up.bind(migration);
    migration.up = (queryRunner: QueryRunner) => {
      progress(`${index + 1}/${pending.length} ${nameOf(migration)}`);
      return up(queryRunner);
    };
  });
}
