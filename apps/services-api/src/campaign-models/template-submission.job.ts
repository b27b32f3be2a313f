import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { SqlRunner } from '@platform/database';
import type PgBoss from 'pg-boss';
import { withPropagatedHeaders, WithHeaders } from '../jobs/job-headers';
import { JobQueueRepository } from '../jobs/job-queue.repository';
import { JOBS_SETTINGS, JobsSettings, PG_BOSS, registerWorker } from '../jobs/pg-boss.provider';
import { TemplateSubmission } from './template-submission';

export const TEMPLATE_SUBMISSION_QUEUE = 'campaign-model-submission';

export interface TemplateSubmissionJob extends WithHeaders {
  campaignModelID: string;
  /** Background attempts made so far (the delay doubles with each). */
  attempt: number;
}

export const SUBMISSION_RETRY = Symbol('SUBMISSION_RETRY');
export interface SubmissionRetrySettings {
  firstDelaySeconds: number;
  maxDelaySeconds: number;
}

/** Delay before background attempt `attempt + 1`: doubling from the first delay, capped. */
export function retryDelaySeconds(settings: SubmissionRetrySettings, attempt: number): number {
  return Math.min(settings.maxDelaySeconds, settings.firstDelaySeconds * 2 ** Math.min(attempt, 20));
}

/**
 * The durable side of template submission. Every create enqueues a job in
 * the transaction that inserts the model, due after the first delay: if the
 * submission made during the request settled the model, the job finds
 * nothing to do; if the provider was down, timed out, or the process died,
 * the job submits. While the provider stays unavailable, each attempt
 * enqueues the next one, later, until the provider accepts or refuses.
 * A job that fails unexpectedly is retried by pg-boss itself.
 */
@Injectable()
export class TemplateSubmissionJobs implements OnApplicationBootstrap {
  constructor(
    @Inject(PG_BOSS) private readonly boss: PgBoss,
    @Inject(JOBS_SETTINGS) private readonly jobs: JobsSettings,
    @Inject(SUBMISSION_RETRY) private readonly retry: SubmissionRetrySettings,
    private readonly submission: TemplateSubmission,
    private readonly queue: JobQueueRepository,
  ) {}

  /** Enqueues the model's first job within the create's transaction (`runner`), due after the first delay. */
  async enqueueFirst(runner: SqlRunner, campaignModelID: string): Promise<void> {
    const job: TemplateSubmissionJob = withPropagatedHeaders({ campaignModelID, attempt: 0 });
    await this.queue.sendWithin(runner, TEMPLATE_SUBMISSION_QUEUE, job, { startAfter: this.retry.firstDelaySeconds });
  }

  async onApplicationBootstrap(): Promise<void> {
    await registerWorker<TemplateSubmissionJob>(
      this.boss,
      this.jobs,
      { name: TEMPLATE_SUBMISSION_QUEUE, retryLimit: 10, retryDelay: this.retry.firstDelaySeconds, retryBackoff: true },
      (job) => this.run(job.data),
    );
  }

  async run(job: TemplateSubmissionJob): Promise<void> {
    const result = await this.submission.submit(job.campaignModelID);
    if (result !== 'unavailable') return;
    // The next attempt runs as part of the request that created the model, as this one does.
    const next: TemplateSubmissionJob = withPropagatedHeaders({ campaignModelID: job.campaignModelID, attempt: job.attempt + 1 });
    await this.boss.send(TEMPLATE_SUBMISSION_QUEUE, next, { startAfter: retryDelaySeconds(this.retry, job.attempt + 1) });
  }
}
