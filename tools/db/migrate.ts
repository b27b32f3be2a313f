import 'reflect-metadata';
import { ensureReachable, exitOnStartupFailure, postgresDependency } from '@platform/config';
import { runMigrations } from '@platform/database';
import { ensureDatabaseExists } from '../support/ensure-database';
import { loadLocalEnvironment } from '../support/env-file';
import { loadRunningLocalServices } from '../support/local-services';

/** `npm run db:migrate`: applies pending migrations to DATABASE_URL, once, before the apps take traffic. */
async function main(): Promise<void> {
  loadLocalEnvironment();
  loadRunningLocalServices();
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is missing (`npm start` migrates its embedded PostgreSQL itself)');
  await ensureReachable([postgresDependency(url)]);
  // Production databases are provisioned, not created here (the role may not reach `postgres`).
  if (process.env.NODE_ENV !== 'production') await ensureDatabaseExists(url);
  const applied = await runMigrations(url);
  process.stdout.write(applied.length ? `Applied migrations: ${applied.join(', ')}\n` : 'No pending migrations.\n');
}

main().catch((error: unknown) => exitOnStartupFailure(error, 'db-migrate'));
