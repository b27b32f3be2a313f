import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Clock } from '@platform/app-foundation';
import type { SqlRunner } from '@platform/database';
import type { PgBoss } from 'pg-boss';
import type { WithHeaders } from '../../jobs/job-headers';
import { JobQueueRepository } from '../../jobs/job-queue.repository';
import { JOBS_SETTINGS, JobsSettings, PG_BOSS, registerWorker } from '../../jobs/pg-boss';
import { WebhookSigningSecrets } from '../signing-secrets';
import { ClaimedDelivery, QueuedDelivery, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDeliveryMetrics } from './webhook-delivery-metrics';
import { leaseSeconds, retryDelayMs, WEBHOOK_DELIVERY_SETTINGS, WebhookDeliverySettings } from './webhook-delivery-settings';
import { signedHeaders } from './webhook-request';
import { AttemptOutcome, WebhookSender } from './webhook-sender';

/** The pg-boss queue of webhook delivery attempts: one job names one delivery to attempt. */
export const WEBHOOK_DELIVERY_QUEUE = 'webhook-delivery';

export type WebhookDeliveryJob = { deliveryID: string } & WithHeaders;

/** The job of a delivery, due at `startAfter` (now when left out), under the request of the change that caused it. */
export function deliveryJob(delivery: QueuedDelivery, startAfter?: Date): { data: WebhookDeliveryJob; startAfter?: Date } {
  const data: WebhookDeliveryJob = delivery.headers ? { deliveryID: delivery.id, headers: delivery.headers } : { deliveryID: delivery.id };
  return startAfter ? { data, startAfter } : { data };
}

/**
 * Attempts webhook deliveries, at least once each.
 *
 * The delivery row is the truth; a job only says "try this one now". A job
 * first claims its delivery (a lease in the row, WebhookDeliveriesRepository
 * ATTEMPTABLE): a delivery that succeeded, is not yet due, belongs to a
 * disabled endpoint, waits behind an older delivery of its subject, or whose
 * endpoint already has an attempt in flight is left alone, and the job ends.
 * The outcome is recorded in one transaction with the jobs it implies: the
 * retry at its time (jittered exponential schedule), and the endpoint's next
 * waiting delivery, so deliveries a busy endpoint made wait are taken up one
 * after the other as soon as it answers. A worker that dies mid-attempt
 * leaves the lease to lapse; the dispatcher then queues the delivery again
 * (WebhookDispatcher), with the same webhook-id.
 *
 * Attempts run `concurrency` at a time per replica, never two for one
 * endpoint, each within WEBHOOK_DELIVERY_TIMEOUT_MS: a receiver that hangs
 * holds one worker for that long and no more, and other tenants' deliveries
 * go on through the others.
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap {
  private workerIDs: string[] = [];

  constructor(
    @Inject(PG_BOSS) private readonly boss: PgBoss,
    @Inject(JOBS_SETTINGS) private readonly jobs: JobsSettings,
    @Inject(WEBHOOK_DELIVERY_SETTINGS) private readonly settings: WebhookDeliverySettings,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly queue: JobQueueRepository,
    private readonly secrets: WebhookSigningSecrets,
    private readonly sender: WebhookSender,
    private readonly metrics: WebhookDeliveryMetrics,
    private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const queue = {
      name: WEBHOOK_DELIVERY_QUEUE,
      // Retries of the job itself cover a failure to reach the database, not a receiver's failure (that is the delivery's schedule).
      retryLimit: 5,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: leaseSeconds(this.settings) + 60,
    };
    this.workerIDs = await registerWorker<WebhookDeliveryJob>(this.boss, this.jobs, queue, (job) => this.attempt(job.data.deliveryID), {
      concurrency: this.settings.concurrency,
      fetchAgainAtOnce: true,
    });
  }

  /** Sends jobs within the caller's transaction (call `wakeUp` after it commits). */
  async enqueueWithin(runner: SqlRunner, jobs: { data: WebhookDeliveryJob; startAfter?: Date }[]): Promise<void> {
    await this.queue.insertWithin(runner, WEBHOOK_DELIVERY_QUEUE, jobs);
  }

  /** Lets this replica's idle workers take new jobs now rather than at their next poll. */
  wakeUp(): void {
    for (const workerID of this.workerIDs) this.boss.notifyWorker(workerID);
  }

  /** One attempt of the delivery, if it may be attempted now. */
  async attempt(deliveryID: string): Promise<void> {
    const claimed = await this.deliveries.claim(deliveryID, leaseSeconds(this.settings));
    if (!claimed) return;
    const outcome = await this.send(claimed);
    await this.record(claimed, outcome);
  }

  private async send(claimed: ClaimedDelivery): Promise<AttemptOutcome> {
    const secrets = [claimed.secret, claimed.previous_secret]
      .filter((sealed): sealed is string => sealed !== null)
      .map((sealed) => this.secrets.open(claimed.endpoint_id, sealed))
      .filter((secret): secret is string => secret !== undefined);
    // Never sent unsigned: a secret no configured key opens (WEBHOOK_SECRETS_KEY changed without _PREVIOUS) is a failed attempt.
    if (secrets.length === 0) return { succeeded: false, statusCode: null, error: 'signing secret unreadable', durationMs: 0 };
    const { type, timestamp, data } = claimed.payload;
    const body = JSON.stringify({ type, timestamp, data });
    return this.sender.post(claimed.url, signedHeaders(claimed.event_id, body, secrets, this.clock.now()), body);
  }

  private async record(claimed: ClaimedDelivery, outcome: AttemptOutcome): Promise<void> {
    const attempt = claimed.attempt_count + 1;
    let result: 'succeeded' | 'retrying' | 'failed' = 'succeeded';
    await this.deliveries.transaction(async (runner) => {
      await this.deliveries.recordAttempt(runner, claimed.id, outcome);
      const jobs: { data: WebhookDeliveryJob; startAfter?: Date }[] = [];
      if (outcome.succeeded) {
        await this.deliveries.succeed(runner, claimed.id, claimed.endpoint_id, outcome.statusCode!);
      } else {
        const nextAttemptAt = await this.deliveries.fail(runner, claimed.id, outcome.statusCode, outcome.error!, retryDelayMs(this.settings, attempt));
        result = nextAttemptAt ? 'retrying' : 'failed';
        if (nextAttemptAt) jobs.push(deliveryJob({ id: claimed.id, headers: claimed.headers }, nextAttemptAt));
        const failing = await this.deliveries.endpointFailed(runner, claimed.endpoint_id, this.settings.disableAfterHours);
        if (failing?.overdue) {
          const lastAnswer = outcome.statusCode === null ? outcome.error : String(outcome.statusCode);
          await this.deliveries.disable(runner, claimed.endpoint_id, `failing since ${failing.failing_since.toISOString()}: last answer ${lastAnswer}`);
        }
      }
      const next = await this.deliveries.nextOfEndpoint(runner, claimed.endpoint_id);
      if (next) jobs.push(deliveryJob(next));
      await this.enqueueWithin(runner, jobs);
    });
    this.metrics.attemptEnded(result);
  }
}
