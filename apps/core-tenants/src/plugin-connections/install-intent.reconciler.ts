import { Inject, Injectable } from '@nestjs/common';
import { DueWorkLoop } from '@platform/scheduling';
import { CANCELLATION_SCHEDULE, CancellationSchedule } from './billing/cancellation-schedule';
import { ReconcileInstallIntentUseCase } from './reconcile-install-intent.use-case';

/**
 * Finishes or undoes install intents left pending (ReconcileInstallIntentUseCase
 * holds the rule), in the shape of the billing-cancellation outbox: the same
 * loop, poll period and backoff. A table of intents rather than pg-boss for
 * the same reasons: the intent is a domain record written before the provider
 * call, inspectable by operators, and its close commits with the connection.
 */
@Injectable()
export class InstallIntentReconciler extends DueWorkLoop {
  constructor(
    private readonly reconcile: ReconcileInstallIntentUseCase,
    @Inject(CANCELLATION_SCHEDULE) schedule: CancellationSchedule,
  ) {
    super(schedule.pollMs, 'install reconciliation');
  }

  protected attemptDue(): Promise<boolean> {
    return this.reconcile.execute();
  }
}
