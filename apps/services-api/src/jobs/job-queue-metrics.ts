import { Inject, Injectable } from '@nestjs/common';
import { boundedRead, PlatformMetrics, PoolCounts } from '@platform/observability';
import type { PgBoss } from 'pg-boss';
import { JOBS_SETTINGS, JobsSettings, PG_BOSS } from './pg-boss';

interface QueueReading {
  queue: string;
  depth: number;
  oldest_due_seconds: number;
}

/**
 * Waiting jobs per queue (created or waiting for a retry, due or not) and how
 * long the oldest due one has been due: 0 while the workers keep up, growing
 * while they do not (or are down). Jobs scheduled for later (a retry's delay,
 * a submission's first delay) count in the depth only once enqueued and in
 * the age only once due, so neither alerts on a healthy queue. One statement
 * for every queue, served by pg-boss's own fetch index (name, start_after).
 */
const READ_QUEUES = `
  SELECT name AS queue,
         count(*)::int AS depth,
         COALESCE(EXTRACT(epoch FROM now() - min(start_after) FILTER (WHERE start_after <= now())), 0)::float8 AS oldest_due_seconds
    FROM pgboss.job
   WHERE name = ANY($1) AND state < 'active'
   GROUP BY name`;

/**
 * The job queues' gauges (`platform_job_queue_depth`,
 * `platform_job_queue_oldest_due_age_seconds`, by `queue`) and pg-boss's
 * pool in the pool gauges (`pool="jobs"`). Read at scrape time through
 * pg-boss's own connections, so a busy app pool does not delay them.
 */
@Injectable()
export class JobQueueMetrics {
  constructor(@Inject(PG_BOSS) boss: PgBoss, @Inject(JOBS_SETTINGS) settings: JobsSettings, metrics: PlatformMetrics) {
    const queues = settings.measuredQueues;
    const db = boss.getDb();
    const read = boundedRead(async () => {
      const { rows } = (await db.executeSql(READ_QUEUES, [queues])) as { rows: QueueReading[] };
      // A queue without waiting jobs has no row: it is reported as 0, not left out.
      return queues.map((queue) => rows.find((row) => row.queue === queue) ?? { queue, depth: 0, oldest_due_seconds: 0 });
    });
    metrics.addScrapeGauge({
      name: 'job_queue_depth',
      help: 'Jobs waiting in the queue (created or waiting for a retry, due or scheduled later), by queue.',
      labelNames: ['queue'],
      read: async () => (await read()).map((row) => ({ labels: { queue: row.queue }, value: row.depth })),
    });
    metrics.addScrapeGauge({
      name: 'job_queue_oldest_due_age_seconds',
      help: 'How long the oldest due job of the queue has been waiting for a worker, in seconds (0 when none is due), by queue.',
      labelNames: ['queue'],
      read: async () => (await read()).map((row) => ({ labels: { queue: row.queue }, value: row.oldest_due_seconds })),
    });
    // pg-boss keeps its pg.Pool on its Db (not in its typings); absent until the instance started.
    metrics.addDatabasePool('jobs', () => (db as unknown as { pool?: PoolCounts }).pool);
  }
}
