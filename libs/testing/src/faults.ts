import type { Queryable } from './fixtures';

/**
 * Runs `work` while `table` is renamed away, so any query on it fails: how
 * the tests produce the 500 5999 row of an operation through HTTP.
 */
export async function withTableMissing<T>(database: Queryable, table: string, work: () => Promise<T>): Promise<T> {
  await database.query(`ALTER TABLE ${table} RENAME TO ${table}_away`);
  try {
    return await work();
  } finally {
    await database.query(`ALTER TABLE ${table}_away RENAME TO ${table}`);
  }
}
