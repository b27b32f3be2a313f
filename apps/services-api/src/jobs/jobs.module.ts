import { DynamicModule, Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { PgBoss } from 'pg-boss';
import { JobQueueMetrics } from './job-queue-metrics';
import { JobQueueRepository } from './job-queue.repository';
import { setAsidePgBoss10Schema } from './pg-boss-upgrade.repository';
import { JOBS_SETTINGS, JobsSettings, PG_BOSS } from './pg-boss';

/**
 * The error as logged: pg-pool attaches the whole driver client to an idle
 * connection's error (`err.client`: its connection, its queue, its
 * parameters), kilobytes per line that say nothing the message does not.
 */
export function withoutDriverClient(error: unknown): unknown {
  if (!(error instanceof Error) || !('client' in error)) return error;
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Error & { client?: unknown };
  Object.defineProperties(copy, Object.getOwnPropertyDescriptors(error));
  // V8's `stack` accessor reads the error it was made on: the copy gets the text.
  Object.defineProperty(copy, 'stack', { value: error.stack, writable: true, configurable: true });
  delete copy.client;
  return copy;
}

/**
 * Durable background work for services-api: one pg-boss instance (jobs kept
 * in PostgreSQL, in pg-boss's own `pgboss` schema, which it creates and
 * migrates itself; a pg-boss 10 schema is set aside first, pg-boss-upgrade.repository.ts),
 * started before the app serves and stopped with it.
 *
 * Features inject `PG_BOSS` to send jobs (inside their own transaction with
 * `JobQueueRepository`) and register their workers in `onApplicationBootstrap`
 * with `registerWorker`.
 */
@Global()
@Module({})
export class JobsModule implements OnApplicationShutdown {
  private readonly logger = new Logger('Jobs');

  constructor(@Inject(PG_BOSS) private readonly boss: PgBoss) {}

  static forRoot(settings: JobsSettings): DynamicModule {
    return {
      module: JobsModule,
      providers: [
        { provide: JOBS_SETTINGS, useValue: settings },
        {
          provide: PG_BOSS,
          useFactory: async () => {
            const logger = new Logger('Jobs');
            if (await setAsidePgBoss10Schema(settings.databaseUrl, settings.applicationName)) {
              logger.log('pg-boss 10 schema set aside as pgboss_v10; each queue takes over its unfinished jobs');
            }
            const boss = new PgBoss({
              connectionString: settings.databaseUrl,
              application_name: settings.applicationName,
              max: settings.poolSize,
              // Maintenance (expiry, archive) runs in every replica; pg-boss serialises it with an advisory lock.
              supervise: true,
            });
            boss.on('error', (error) => logger.error({ err: withoutDriverClient(error) }, 'pg-boss error'));
            await boss.start();
            return boss;
          },
        },
        JobQueueMetrics,
        JobQueueRepository,
      ],
      exports: [PG_BOSS, JOBS_SETTINGS, JobQueueRepository],
    };
  }

  /** Stops fetching, lets running jobs finish within the shutdown budget, then closes the pool. */
  async onApplicationShutdown(): Promise<void> {
    const settings = { graceful: true, timeout: 5_000 };
    await this.boss.stop(settings).catch((error: unknown) => this.logger.warn({ err: withoutDriverClient(error) }, 'pg-boss did not stop cleanly'));
  }
}
