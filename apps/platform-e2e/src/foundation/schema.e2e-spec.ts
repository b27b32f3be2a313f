import { createDataSource } from '@platform/database';
import { createTestDatabase } from '@platform/testing';
import { describe, expect, it } from 'vitest';

describe('database schema', () => {
  it('matches the entities exactly after all migrations (no drift between the two)', async () => {
    const database = await createTestDatabase();
    const dataSource = createDataSource({ url: database.url, poolSize: 1 });
    await dataSource.initialize();
    try {
      const pending = await dataSource.driver.createSchemaBuilder().log();
      expect(pending.upQueries.map((query) => query.query)).toEqual([]);
    } finally {
      await dataSource.destroy();
      await database.drop();
    }
  });
});
