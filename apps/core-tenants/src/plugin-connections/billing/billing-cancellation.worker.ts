import { Inject, Injectable } from '@nestjs/common';
import { DueWorkLoop } from '@platform/scheduling';
import { CancelDueSubscriptionItemUseCase } from './cancel-due-subscription-item.use-case';
import { CANCELLATION_SCHEDULE, CancellationSchedule } from './cancellation-schedule';

/**
 * Runs the cancellation of recorded subscription items until the billing
 * provider confirms each (CancelDueSubscriptionItemUseCase holds the rule).
 *
 * An outbox table rather than pg-boss: the cancellation is a domain record
 * written in the removal's transaction, inspectable by operators (its
 * attempts, last error and next attempt are columns of the row), and
 * core-tenants runs no job queue. Its capped backoff (cancellation-schedule.ts)
 * is the row's own schedule, not a job re-enqueued by hand.
 */
@Injectable()
export class BillingCancellationWorker extends DueWorkLoop {
  constructor(
    private readonly cancelDue: CancelDueSubscriptionItemUseCase,
    @Inject(CANCELLATION_SCHEDULE) schedule: CancellationSchedule,
  ) {
    super(schedule.pollMs, 'billing cancellation');
  }

  protected attemptDue(): Promise<boolean> {
    return this.cancelDue.execute();
  }
}
