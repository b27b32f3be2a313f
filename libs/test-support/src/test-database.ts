import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDataSource, runMigrations } from '@platform/database';
import type { DataSource } from 'typeorm';
import { POOLER_URL_VARIABLE } from './test-pooler';

/** The server tests run on when TEST_DATABASE_ADMIN_URL says nothing else. */
export const DEFAULT_ADMIN_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** Server to run tests on. Read when used: the global setup may point it at an embedded server (test-services.ts). */
export function adminDatabaseUrl(): string {
  return process.env.TEST_DATABASE_ADMIN_URL ?? DEFAULT_ADMIN_DATABASE_URL;
}
/** One template per checkout, so two working copies on one machine never drop each other's. */
const TEMPLATE_DATABASE = `platform_test_template_${createHash('sha256').update(process.cwd()).digest('hex').slice(0, 10)}`;

function databaseUrl(name: string, server = adminDatabaseUrl()): string {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminDatabaseUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Builds the migrated template database once per test run (vitest global
 * setup). Each test file then clones it, which takes milliseconds.
 */
export async function prepareTemplateDatabase(): Promise<void> {
  await withAdmin(async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  });
  await runMigrations(databaseUrl(TEMPLATE_DATABASE));
}

export interface TestDatabase {
  /** What the apps use: through PgBouncer when the test run started one (TEST_DATABASE_POOLER), else direct. */
  url: string;
  /** Straight to the server, for what needs a session of its own (migrations). */
  directUrl: string;
  drop: () => Promise<void>;
}

/** A fresh database for one test file, cloned from the template; dropped by the returned function. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `platform_test_${randomBytes(6).toString('hex')}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`));
  const pooler = process.env[POOLER_URL_VARIABLE];
  return {
    url: pooler ? databaseUrl(name, pooler) : databaseUrl(name),
    directUrl: databaseUrl(name),
    drop: () => withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/**
 * A fresh test database and an initialized DataSource on it, for one
 * repository spec file (no app booted); `close` destroys both.
 */
export async function createTestDataSource(poolSize = 4): Promise<{ dataSource: DataSource; close: () => Promise<void> }> {
  const database = await createTestDatabase();
  const dataSource = createDataSource({ url: database.url, poolSize });
  await dataSource.initialize();
  return {
    dataSource,
    close: async () => {
      await dataSource.destroy();
      await database.drop();
    },
  };
}
