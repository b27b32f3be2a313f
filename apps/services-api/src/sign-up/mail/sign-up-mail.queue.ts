import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { Job, PgBoss } from 'pg-boss';
import { runJobAsPartOfItsRequest, withPropagatedHeaders } from '../../jobs/job-headers';
import { adoptPgBoss10Jobs } from '../../jobs/pg-boss-upgrade.repository';
import { createQueueOnce, PG_BOSS } from '../../jobs/pg-boss';
import { SIGN_UP_MAIL_QUEUE, SignUpMailJob } from './sign-up-mail.job';
import { SignUpMailSender } from './sign-up-mail.sender';

/** Mails delivered in parallel by one replica's worker. */
const BATCH_SIZE = 8;

export const MAIL_RETRY_POLICY = Symbol('MAIL_RETRY_POLICY');

export interface MailRetryPolicy {
  /** Retries after the first attempt. */
  retryLimit: number;
  /** Seconds before the first retry; doubles each time. */
  retryDelaySeconds: number;
  pollingIntervalSeconds: number;
}

/** A database handle to enqueue inside a caller's transaction (pg-boss `db` option). */
export interface JobDatabase {
  executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * The durable queue of sign-up mails: jobs live in PostgreSQL, so a mail
 * survives a crash or a restart, and a failed delivery is retried with
 * exponential backoff by whichever replica is free.
 */
@Injectable()
export class SignUpMailQueue implements OnModuleInit {
  private workerID: string | undefined;

  constructor(
    @Inject(PG_BOSS) private readonly boss: PgBoss,
    @Inject(MAIL_RETRY_POLICY) private readonly policy: MailRetryPolicy,
    private readonly sender: SignUpMailSender,
  ) {}

  async onModuleInit(): Promise<void> {
    const options = {
      name: SIGN_UP_MAIL_QUEUE,
      retryLimit: this.policy.retryLimit,
      retryDelay: this.policy.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: 120,
    };
    await createQueueOnce(this.boss, options);
    await this.boss.updateQueue(SIGN_UP_MAIL_QUEUE, options);
    await adoptPgBoss10Jobs(this.boss, SIGN_UP_MAIL_QUEUE);
    this.workerID = await this.boss.work<SignUpMailJob>(
      SIGN_UP_MAIL_QUEUE,
      { batchSize: BATCH_SIZE, pollingIntervalSeconds: this.policy.pollingIntervalSeconds },
      (jobs) => this.deliverBatch(jobs),
    );
  }

  /**
   * Delivers a batch in parallel. pg-boss completes or fails a whole batch
   * together, so each failed delivery is failed here on its own (it is then
   * retried per the queue's policy); pg-boss completes the rest on return.
   */
  private async deliverBatch(jobs: Job<SignUpMailJob>[]): Promise<void> {
    try {
      const outcomes = await Promise.allSettled(
        jobs.map((job) => runJobAsPartOfItsRequest(SIGN_UP_MAIL_QUEUE, job.data, () => this.sender.deliver(job.data))),
      );
      await Promise.all(
        outcomes.map((outcome, index) =>
          outcome.status === 'rejected' ? this.boss.fail(SIGN_UP_MAIL_QUEUE, jobs[index].id, { message: String(outcome.reason) }) : undefined,
        ),
      );
    } finally {
      // A full or partial batch may mean more is waiting: fetch again at once rather than after a polling interval.
      if (jobs.length > 0) this.wakeUp();
    }
  }

  /** Enqueues a mail; with `db`, inside the caller's transaction (call `wakeUp` after it commits). */
  async enqueue(job: SignUpMailJob, db?: JobDatabase): Promise<void> {
    await this.boss.send(SIGN_UP_MAIL_QUEUE, withPropagatedHeaders(job), db ? { db } : {});
    if (!db) this.wakeUp();
  }

  /** Lets this replica's worker pick the job at once instead of at its next poll. */
  wakeUp(): void {
    if (this.workerID) this.boss.notifyWorker(this.workerID);
  }
}
