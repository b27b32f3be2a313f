import 'reflect-metadata';
import { exitOnStartupFailure } from '@platform/config';
import { applyMigrations } from './apply-migrations';

/**
 * The images' migration entry (`node dist/tools/db/migrate.js`, the migrate
 * Job): the environment is the Job's, and nothing of local development is
 * loaded, so the image carries neither the embedded PostgreSQL nor the
 * in-memory Redis-compatible server (docs/images.md). `npm run db:migrate`
 * runs ./migrate-local instead.
 */
applyMigrations().catch((error: unknown) => exitOnStartupFailure(error, 'db-migrate'));
