import type { Job, PgBoss, Queue } from 'pg-boss';
import { runJobAsPartOfItsRequest, WithHeaders } from './job-headers';
import { adoptPgBoss10Jobs } from './pg-boss-upgrade.repository';

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
  /** Queues whose depth and oldest due job are metrics (JobQueueMetrics). */
  measuredQueues: string[];
}

/** PostgreSQL's deadlock_detected. */
const DEADLOCK_DETECTED = '40P01';
const QUEUE_CREATION_ATTEMPTS = 5;

/**
 * pg-boss's `createQueue` is idempotent, but it attaches each new queue's
 * partition to its one job table, so queues created at the same moment (two
 * replicas starting together, or the queues of one replica) can deadlock, and
 * PostgreSQL aborts one of them, which would fail that replica's start. The
 * deadlock means another creation is under way: asking again, a moment later
 * (at random, so the two do not meet again), finds the queue made or makes it.
 */
export async function createQueueOnce(boss: PgBoss, queue: Queue): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await boss.createQueue(queue.name, queue);
    } catch (error) {
      if ((error as { code?: string }).code !== DEADLOCK_DETECTED || attempt >= QUEUE_CREATION_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 100 * attempt));
    }
  }
}

/** How a queue's workers run (registerWorker). */
export interface WorkerOptions {
  /** Workers of this replica, each running one job at a time (1 by default). */
  concurrency?: number;
  /**
   * A worker that just ran a job fetches the next at once instead of waiting
   * for the polling interval: for queues whose jobs come in bursts and should
   * not wait behind one another (webhook deliveries).
   */
  fetchAgainAtOnce?: boolean;
}

/**
 * Creates the queue (idempotent), applies `queue`'s retry and retention
 * settings to a queue an earlier release created with others, and starts
 * workers on it, each taking one job at a time, each job under the request
 * that enqueued it (after taking over the queue's jobs of a pg-boss 10
 * schema, pg-boss-upgrade.repository.ts). A handler that throws makes pg-boss
 * retry the job by the queue's retry policy. Answers the workers' ids
 * (notifyWorker).
 */
export async function registerWorker<T extends object>(
  boss: PgBoss,
  settings: JobsSettings,
  queue: Queue,
  handler: (job: Job<T>) => Promise<void>,
  options: WorkerOptions = {},
): Promise<string[]> {
  await createQueueOnce(boss, queue);
  // Policy and partitioning are fixed at creation; the rest follows the code.
  const { name, policy: _policy, partition: _partition, ...settingsOfQueue } = queue;
  if (Object.keys(settingsOfQueue).length > 0) await boss.updateQueue(name, settingsOfQueue);
  await adoptPgBoss10Jobs(boss, name);
  const workerIDs: string[] = [];
  for (let index = 0; index < (options.concurrency ?? 1); index += 1) {
    // The worker's id is known once work() answers; its first job may run before.
    const worker: { id?: string } = {};
    worker.id = await boss.work<T>(queue.name, { pollingIntervalSeconds: settings.pollingIntervalMs / 1000, batchSize: 1 }, async (jobs) => {
      for (const job of jobs) await runJobAsPartOfItsRequest(queue.name, job.data as WithHeaders, () => handler(job));
      // Notified while it runs, pg-boss's worker skips its polling delay once this batch is done.
      if (options.fetchAgainAtOnce && jobs.length > 0 && worker.id) boss.notifyWorker(worker.id);
    });
    workerIDs.push(worker.id);
  }
  return workerIDs;
}
