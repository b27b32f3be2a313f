export { createDataSource, dataSourceOptions, STATEMENT_TIMEOUT_MS } from './data-source';
export type { DatabaseSettings } from './data-source';
export { DatabaseModule } from './database.module';
export * from './entities';
export { MIGRATIONS } from './migrations';
export { runMigrations } from './run-migrations';
export { firstRow, rows, run, sql } from './typed-sql';
export type { Sql, SqlResult, SqlRunner } from './typed-sql';
export { deleteInBatches, PeriodicSweep } from './expiry-sweep';
