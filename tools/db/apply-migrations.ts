import { ensureReachable, postgresDependency } from '@platform/config';
import { runMigrations } from '@platform/database';
import { ensureDatabaseExists } from '../support/ensure-database';

/**
 * Applies pending migrations, once, before the apps take traffic. It connects
 * to DATABASE_MIGRATION_URL when set: behind a transaction pooler DATABASE_URL
 * reaches PostgreSQL through it, and the migration lock is a session advisory
 * lock that needs a connection of its own (docs/deployment.md).
 *
 * Shared by the images' entry (./migrate) and `npm run db:migrate`
 * (./migrate-local); it reads only the environment it is given.
 */
export async function applyMigrations(): Promise<void> {
  const url = process.env.DATABASE_MIGRATION_URL || process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_MIGRATION_URL and DATABASE_URL are missing (`npm start` migrates its embedded PostgreSQL itself)');
  await ensureReachable([postgresDependency(url)]);
  // Production databases are provisioned, not created here (the role may not reach `postgres`).
  if (process.env.NODE_ENV !== 'production') await ensureDatabaseExists(url);
  const applied = await runMigrations(url, (line) => process.stdout.write(`Applying migration ${line}\n`));
  process.stdout.write(applied.length ? `Applied migrations: ${applied.join(', ')}\n` : 'No pending migrations.\n');
}
