import 'reflect-metadata';
import { CoreTenantsConfig } from '@apps/core-tenants';
import { ensureReachable, exitOnStartupFailure, loadConfig, postgresDependency } from '@platform/config';
import { createDataSource, runMigrations } from '@platform/database';
import { ensureDatabaseExists } from '../support/ensure-database';
import { loadLocalEnvironment } from '../support/env-file';
import { loadRunningLocalServices } from '../support/local-services';
import { seedDemo } from './demo-fixture';

/**
 * `npm run --silent demo:seed`: creates fresh demo data in DATABASE_URL (with
 * it unset: in the embedded PostgreSQL of the running `npm start`) and prints
 * its fixture as exactly one JSON object on stdout, nothing else; its
 * progress goes to stderr, one line per step.
 */
const say = (line: string) => process.stderr.write(`[demo:seed] ${line}\n`);

async function main(): Promise<void> {
  loadLocalEnvironment();
  if (!process.env.DATABASE_URL && !loadRunningLocalServices()) {
    throw new Error('DATABASE_URL is not set and no `npm start` is running: start the quick start first (it runs an embedded PostgreSQL), or set DATABASE_URL.');
  }
  await ensureReachable([postgresDependency(process.env.DATABASE_URL as string)]);
  const config = loadConfig(CoreTenantsConfig);
  // A first seed on a fresh machine needs the schema: bring it up to date (a no-op otherwise).
  await ensureDatabaseExists(config.DATABASE_URL);
  await runMigrations(config.DATABASE_URL, (line) => say(`migration ${line}`));
  const dataSource = createDataSource({ url: config.DATABASE_URL, poolSize: 2, applicationName: 'demo-seed' });
  await dataSource.initialize();
  try {
    const fixture = await seedDemo(dataSource, config, (step) => say(`seeding ${step}`));
    say('done: the fixture follows on stdout');
    process.stdout.write(`${JSON.stringify(fixture, null, 2)}\n`);
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => exitOnStartupFailure(error, 'demo-seed'));
