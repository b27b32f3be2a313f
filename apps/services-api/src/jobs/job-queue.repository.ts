import { Inject, Injectable } from '@nestjs/common';
import type { SqlRunner } from '@platform/database';
import type { Db, JobInsert, PgBoss, SendOptions } from 'pg-boss';
import { PG_BOSS } from './pg-boss';

/**
 * Enqueues jobs inside one of our transactions, so a job exists if and only
 * if the rows it is about were committed (an outbox without a relay).
 *
 * pg-boss writes the job with its own SQL; what lives here is the adapter
 * that runs that SQL on our transaction's connection (pg-boss's `db`
 * option). It is the only place pg-boss's statements meet our connection,
 * hence a repository file.
 */
@Injectable()
export class JobQueueRepository {
  constructor(@Inject(PG_BOSS) private readonly boss: PgBoss) {}

  /** Sends the job within the transaction `runner` belongs to. */
  async sendWithin(runner: SqlRunner, queue: string, data: object, options: SendOptions): Promise<void> {
    await this.boss.send(queue, data, { ...options, db: jobDatabaseOf(runner) });
  }

  /** Sends several jobs of one queue within the transaction `runner` belongs to, in one statement. */
  async insertWithin(runner: SqlRunner, queue: string, jobs: JobInsert[]): Promise<void> {
    if (jobs.length > 0) await this.boss.insert(queue, jobs, { db: jobDatabaseOf(runner) });
  }
}

/** pg-boss's `db` adapter over a TypeORM runner (the EntityManager of a transaction). */
function jobDatabaseOf(runner: SqlRunner): Db {
  return {
    executeSql: async (text, values) => {
      const rows: unknown = await runner.query(text, values);
      return { rows: Array.isArray(rows) ? rows : [] };
    },
  };
}
