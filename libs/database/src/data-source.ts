import { DataSource, DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export interface DatabaseSettings {
  url: string;
  poolSize?: number;
  /** Shown in pg_stat_activity, to tell the apps' connections apart. */
  applicationName?: string;
}

/**
 * The bound of every statement, so a stuck query cannot hold a request for
 * ever. Sent as a startup parameter on direct connections; a transaction
 * pooler sets it on its server connections instead (docs/deployment.md).
 */
export const STATEMENT_TIMEOUT_MS = 15_000;

/** One definition of how every app and tool reaches PostgreSQL. */
export function dataSourceOptions(settings: DatabaseSettings): DataSourceOptions {
  return {
    type: 'postgres',
    url: settings.url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    // The schema changes only through migrations (npm run db:migrate).
    synchronize: false,
    migrationsRun: false,
    applicationName: settings.applicationName,
    extra: {
      max: settings.poolSize ?? 10,
      connectionTimeoutMillis: 5_000,
      statement_timeout: STATEMENT_TIMEOUT_MS,
    },
  };
}

export function createDataSource(settings: DatabaseSettings): DataSource {
  return new DataSource(dataSourceOptions(settings));
}
