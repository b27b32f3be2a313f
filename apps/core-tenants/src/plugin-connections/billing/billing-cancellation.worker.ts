import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { continueJobFrom, detachedFromRequest, PropagatedHeaders, SpanKind } from '@platform/observability';
import { DataSource } from 'typeorm';
import { BillingProvider } from './billing.provider';

export const CANCELLATION_SCHEDULE = Symbol('CANCELLATION_SCHEDULE');

export interface CancellationSchedule {
  pollMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
}

interface DueCancellation {
  id: string;
  subscription_item_id: string;
  attempts: number;
  headers: PropagatedHeaders | null;
}

/**
 * A claimed row is not picked again before this lease ends: longer than one
 * provider call, so two replicas never cancel the same item at once. After a
 * crash mid-attempt, the row is retried when the lease runs out.
 */
const LEASE_SECONDS = 60;

/**
 * Cancels recorded subscription items at the billing provider until it
 * confirms (an item already gone counts as done), with capped exponential
 * backoff. Rows live in PostgreSQL, so a restart or a provider outage loses
 * nothing; replicas share the work through `FOR UPDATE SKIP LOCKED` claims.
 *
 * Each attempt runs under the request id and trace context of the removal
 * that recorded the row: its log lines and spans join that request's.
 *
 * An outbox table rather than pg-boss: the cancellation is a domain record
 * written in the removal's transaction, inspectable by operators, and its
 * backoff is capped (pg-boss 10's exponential retry delay is not), which
 * bounds the time from a provider's recovery to the cancellation.
 */
@Injectable()
export class BillingCancellationWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(BillingCancellationWorker.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly billing: BillingProvider,
    @Inject(CANCELLATION_SCHEDULE) private readonly schedule: CancellationSchedule,
  ) {}

  onApplicationBootstrap(): void {
    this.plan(0);
  }

  /** Before the database pool closes, so an attempt in flight records its outcome. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /**
   * Look now rather than at the next poll (after a removal). The rounds run
   * outside the removal's request: each row carries the request it belongs to.
   */
  nudge(): void {
    if (!this.running) detachedFromRequest(() => this.plan(0));
  }

  private plan(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.runOnce()
        .catch((error: unknown) => this.logger.error({ err: error }, 'billing cancellation round failed'))
        .finally(() => {
          this.running = undefined;
          this.plan(this.schedule.pollMs);
        });
    }, delayMs);
    this.timer.unref();
  }

  /** Works through every due cancellation, claiming one at a time so a stop never strands a claim. */
  private async runOnce(): Promise<void> {
    while (!this.stopped) {
      const [claimed]: [DueCancellation[]] = await this.dataSource.query(
        `UPDATE billing_cancellations SET next_attempt_at = now() + make_interval(secs => $1)
          WHERE id = (SELECT id FROM billing_cancellations
                       WHERE completed_at IS NULL AND next_attempt_at <= now()
                       ORDER BY next_attempt_at
                       LIMIT 1
                       FOR UPDATE SKIP LOCKED)
          RETURNING id, subscription_item_id, attempts, headers`,
        [LEASE_SECONDS],
      );
      if (claimed.length === 0) return;
      const [cancellation] = claimed;
      await continueJobFrom(cancellation.headers, { name: 'billing cancellation', kind: SpanKind.CONSUMER }, () => this.attempt(cancellation));
    }
  }

  private async attempt(cancellation: DueCancellation): Promise<void> {
    try {
      const outcome = await this.billing.cancelSubscriptionItem(cancellation.subscription_item_id);
      await this.dataSource.query(
        `UPDATE billing_cancellations SET completed_at = now(), attempts = attempts + 1, last_error = NULL WHERE id = $1`,
        [cancellation.id],
      );
      this.logger.log({ subscriptionItemId: cancellation.subscription_item_id, outcome }, 'subscription item canceled');
    } catch (error) {
      const delayMs = this.backoff(cancellation.attempts + 1);
      await this.dataSource.query(
        `UPDATE billing_cancellations
            SET attempts = attempts + 1, last_error = $2, next_attempt_at = now() + make_interval(secs => $3)
          WHERE id = $1`,
        [cancellation.id, error instanceof Error ? error.message : String(error), delayMs / 1000],
      );
      this.logger.warn({ subscriptionItemId: cancellation.subscription_item_id, attempts: cancellation.attempts + 1, retryInMs: delayMs }, 'cancellation failed, will retry');
    }
  }

  /** base * 2^(attempts-1), capped, with up to 20% jitter so replicas do not retry in step. */
  private backoff(attempts: number): number {
    const exponential = this.schedule.retryBaseMs * 2 ** Math.min(attempts - 1, 30);
    const capped = Math.min(exponential, this.schedule.retryMaxMs);
    return Math.round(capped * (0.8 + Math.random() * 0.2));
  }
}
