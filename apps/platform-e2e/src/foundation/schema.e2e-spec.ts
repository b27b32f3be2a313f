import { createDataSource } from '@platform/database';
import { createTestDatabase } from '@platform/testing';
import { describe, expect, it } from 'vitest';

/**
 * Indexes and constraints TypeORM cannot describe (trigram GIN indexes,
 * partial or expression indexes, CHECKs, deferrable keys) live only in the
 * migrations; the schema builder would drop them. Everything else it would
 * change (a table, a column, its type, nullability or default) is drift.
 */
const MIGRATION_ONLY = /^(DROP INDEX "public"\."\w+"|ALTER TABLE "\w+" DROP CONSTRAINT "\w+_(check|fkey)")$/;

describe('database schema', () => {
  it('matches the entities after all migrations: every table and column, no drift', async () => {
    const database = await createTestDatabase();
    const dataSource = createDataSource({ url: database.url, poolSize: 1 });
    await dataSource.initialize();
    try {
      const pending = await dataSource.driver.createSchemaBuilder().log();
      expect(pending.upQueries.map((query) => query.query).filter((query) => !MIGRATION_ONLY.test(query))).toEqual([]);
    } finally {
      await dataSource.destroy();
      await database.drop();
    }
  });
});
