import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { SqlRunner } from '@platform/database';
import type { PgBoss, Queue } from 'pg-boss';
import { withPropagatedHeaders, WithHeaders } from '../../jobs/job-headers';
import { JobQueueRepository } from '../../jobs/job-queue.repository';
import { JOBS_SETTINGS, JobsSettings, PG_BOSS, registerWorker } from '../../jobs/pg-boss';
import { TemplateSubmission } from './template-submission';

export const TEMPLATE_SUBMISSION_QUEUE = 'campaign-model-submission';

export type TemplateSubmissionJob = WithHeaders & { campaignModelID: string };

export const SUBMISSION_RETRY = Symbol('SUBMISSION_RETRY');
export interface SubmissionRetrySettings {
  firstDelaySeconds: number;
  maxDelaySeconds: number;
}

/** How long a model the provider keeps refusing to answer is retried in the background. */
export const SUBMISSION_RETRY_WINDOW_SECONDS = 30 * 24 * 3600;

/**
 * The queue's retry policy: pg-boss retries a job whose attempt found the
 * provider unavailable (or failed unexpectedly), the delay doubling from the
 * first delay (with jitter) up to the ceiling. A waiting job is kept for the
 * retry window; the limit lets retries go on for all of it, since no delay
 * is shorter than the first one.
 */
export function submissionQueue(settings: SubmissionRetrySettings): Queue {
  return {
    name: TEMPLATE_SUBMISSION_QUEUE,
    retryDelay: settings.firstDelaySeconds,
    retryBackoff: true,
    retryDelayMax: settings.maxDelaySeconds,
    retentionSeconds: SUBMISSION_RETRY_WINDOW_SECONDS,
    retryLimit: Math.ceil(SUBMISSION_RETRY_WINDOW_SECONDS / settings.firstDelaySeconds),
  };
}

/** An attempt that found the provider unavailable: pg-boss retries the job by the queue's policy. */
export class ProviderUnavailableError extends Error {
  constructor(campaignModelID: string) {
    super(`template provider unavailable for campaign model ${campaignModelID}; submission retried later`);
  }
}

/**
 * The durable side of template submission. Every create enqueues a job in
 * the transaction that inserts the model, due after the first delay: if the
 * submission made during the request settled the model, the job finds
 * nothing to do; if the provider was down, timed out, or the process died,
 * the job submits. While the provider stays unavailable, the attempt fails
 * and pg-boss retries it later (submissionQueue), until the provider
 * accepts or refuses.
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

  /** Enqueues the model's job within the create's transaction (`runner`), due after the first delay. */
  async enqueueFirst(runner: SqlRunner, campaignModelID: string): Promise<void> {
    const job: TemplateSubmissionJob = withPropagatedHeaders({ campaignModelID });
    await this.queue.sendWithin(runner, TEMPLATE_SUBMISSION_QUEUE, job, { startAfter: this.retry.firstDelaySeconds });
  }

  async onApplicationBootstrap(): Promise<void> {
    await registerWorker<TemplateSubmissionJob>(this.boss, this.jobs, submissionQueue(this.retry), (job) => this.run(job.data));
  }

  async run(job: TemplateSubmissionJob): Promise<void> {
    const result = await this.submission.submit(job.campaignModelID);
    if (result === 'unavailable') throw new ProviderUnavailableError(job.campaignModelID);
  }
}
