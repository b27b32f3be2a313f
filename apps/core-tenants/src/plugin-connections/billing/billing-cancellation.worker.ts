import { Inject, Injectable } from '@nestjs/common';
import { DueWorkLoop } from '../due-work-loop';
import { CancelDueSubscriptionItemUseCase } from './cancel-due-subscription-item.use-case';
import { CANCELLATION_SCHEDULE, CancellationSchedule } from './cancellation-schedule';

/**
 * Runs the cancellation of recorded subscription items until the billing
 * provider confirms each (CancelDueSubscriptionItemUseCase holds the rule).
 *
 * An outbox table rather than pg-boss: the cancellation is a domain record
 * written in the removal's transaction, inspectable by operators, and its
 * backoff is capped (pg-boss 10's exponential retry delay is not), which
 * bounds the time from a provider's recovery to the cancellation.
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
