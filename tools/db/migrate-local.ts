import 'reflect-metadata';
import { exitOnStartupFailure } from '@platform/config';
import { loadLocalEnvironment } from '../support/env-file';
import { loadRunningLocalServices } from '../support/local-services';
import { applyMigrations } from './apply-migrations';

/**
 * `npm run db:migrate` on a development machine: `.env` (or `.env.example`)
 * first, then, with DATABASE_URL unset, the embedded PostgreSQL of the quick
 * start that is running.
 */
async function main(): Promise<void> {
  loadLocalEnvironment();
  loadRunningLocalServices();
  await applyMigrations();
}

main().catch((error: unknown) => exitOnStartupFailure(error, 'db-migrate'));
