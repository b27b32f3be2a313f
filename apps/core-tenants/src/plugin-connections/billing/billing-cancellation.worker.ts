import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { detachedFromRequest } from '@platform/observability';
import { CancelDueSubscriptionItemUseCase } from './cancel-due-subscription-item.use-case';
import { CANCELLATION_SCHEDULE, CancellationSchedule } from './cancellation-schedule';

/**
 * Runs the cancellation of recorded subscription items until the billing
 * provider confirms each (CancelDueSubscriptionItemUseCase holds the rule):
 * rounds every poll period and on a nudge. Rows live in PostgreSQL, so a
 * restart or a provider outage loses nothing; replicas share the work through
 * `FOR UPDATE SKIP LOCKED` claims.
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
    private readonly cancelDue: CancelDueSubscriptionItemUseCase,
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

  /** Works through every due cancellation, one claim at a time so a stop never strands a claim. */
  private async runOnce(): Promise<void> {
    let due = true;
    while (due && !this.stopped) due = await this.cancelDue.execute();
  }
}
