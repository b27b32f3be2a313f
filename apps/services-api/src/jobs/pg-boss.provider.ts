import type PgBoss from 'pg-boss';
import type { EntityManager } from 'typeorm';

/** Injection token of services-api's one started pg-boss instance. */
export const PG_BOSS = Symbol('PG_BOSS');
export const JOBS_SETTINGS = Symbol('JOBS_SETTINGS');

export interface JobsSettings {
  databaseUrl: string;
  applicationName: string;
  /** Connections of pg-boss's own pool (apart from the app's TypeORM pool). */
  poolSize: number;
  /** How often an idle worker looks for due jobs. */
  pollingIntervalMs: number;
}

/**
 * Lets pg-boss write a job through a TypeORM transaction, so the job exists
 * if and only if the rows it is about were committed (an outbox without a
 * relay): `boss.send(queue, data, { db: jobDatabaseOf(manager) })`.
 */
export function jobDatabaseOf(manager: EntityManager): PgBoss.Db {
  return {
    executeSql: async (text, values) => {
      const rows: unknown = await manager.query(text, values);
      return { rows: Array.isArray(rows) ? rows : [] };
    },
  };
}

const DEADLOCK_DETECTED = '40P01';

/**
 * pg-boss's `createQueue` is idempotent, but two replicas creating the same
 * new queue at once (a first rollout of two or more replicas) can deadlock
 * in PostgreSQL, and the loser would fail its start. The deadlock means the
 * other replica is creating the queue: asking again finds it made.
 */
export async function createQueueOnce(boss: PgBoss, queue: PgBoss.Queue): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await boss.createQueue(queue.name, queue);
    } catch (error) {
      if ((error as { code?: string }).code !== DEADLOCK_DETECTED || attempt >= 3) throw error;
    }
  }
}

/**
 * Creates the queue (idempotent) and starts a worker on it that takes one
 * job at a time. A handler that throws makes pg-boss retry the job by the
 * queue's retry policy.
 */
export async function registerWorker<T extends object>(
  boss: PgBoss,
  settings: JobsSettings,
  queue: PgBoss.Queue,
  handler: (job: PgBoss.Job<T>) => Promise<void>,
): Promise<void> {
  await createQueueOnce(boss, queue);
  await boss.work<T>(queue.name, { pollingIntervalSeconds: settings.pollingIntervalMs / 1000, batchSize: 1 }, async (jobs) => {
    for (const job of jobs) await handler(job);
  });
}
