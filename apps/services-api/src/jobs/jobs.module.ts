import { DynamicModule, Global, Inject, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import PgBoss from 'pg-boss';

/** Injection token of the started pg-boss instance. */
export const PG_BOSS = Symbol('PG_BOSS');

export interface JobsSettings {
  databaseUrl: string;
  /** How often idle workers look for due jobs. */
  pollingIntervalSeconds: number;
  /** Time given to jobs in flight when the app stops. */
  shutdownTimeoutMs: number;
}

export const JOBS_SETTINGS = Symbol('JOBS_SETTINGS');

/**
 * pg-boss keeps its schema (`pgboss`) up to date itself at start, under an
 * advisory lock, so replicas starting together do not race.
 */
async function startBoss(settings: JobsSettings): Promise<PgBoss> {
  const logger = new Logger('Jobs');
  const boss = new PgBoss({
    connectionString: settings.databaseUrl,
    schema: 'pgboss',
    application_name: 'services-api-jobs',
    max: 3,
    // No cron schedules here; maintenance (expiry, archiving) stays on.
    schedule: false,
  });
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  await boss.start();
  return boss;
}

@Injectable()
class JobsShutdown implements OnApplicationShutdown {
  constructor(
    @Inject(PG_BOSS) private readonly boss: PgBoss,
    @Inject(JOBS_SETTINGS) private readonly settings: JobsSettings,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    // Lets jobs in flight finish (up to the timeout); unfinished ones are retried by another replica.
    await this.boss.stop({ graceful: true, wait: true, timeout: this.settings.shutdownTimeoutMs }).catch(() => undefined);
  }
}

/** Durable background jobs (Postgres-backed): a started pg-boss tied to the app's lifecycle. */
@Global()
@Module({})
export class JobsModule {
  static forRoot(settings: JobsSettings): DynamicModule {
    return {
      module: JobsModule,
      providers: [
        { provide: JOBS_SETTINGS, useValue: settings },
        { provide: PG_BOSS, useFactory: () => startBoss(settings) },
        JobsShutdown,
      ],
      exports: [PG_BOSS, JOBS_SETTINGS],
    };
  }
}
