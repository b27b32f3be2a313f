import { Inject, Injectable, Logger } from '@nestjs/common';
import { continueJobFrom, SpanKind } from '@platform/observability';
import { BillingProvider } from './billing.provider';
import { BillingCancellationsRepository, DueCancellation } from './billing-cancellations.repository';
import { CANCELLATION_SCHEDULE, CancellationSchedule, retryDelayMs } from './cancellation-schedule';

/**
 * A claimed row is not picked again before this lease ends: longer than one
 * provider call, so two replicas never cancel the same item at once. After a
 * crash mid-attempt, the row is retried when the lease runs out.
 */
export const CANCELLATION_LEASE_SECONDS = 60;

/**
 * One attempt at the most overdue recorded cancellation: the provider
 * cancels the subscription item (an item already gone counts as done), or the
 * failure is recorded with the next attempt planned after a capped
 * exponential backoff. The attempt runs under the request id and trace
 * context of the removal that recorded the row, so its log lines and spans
 * join that request's.
 */
@Injectable()
export class CancelDueSubscriptionItemUseCase {
  private readonly logger = new Logger(CancelDueSubscriptionItemUseCase.name);

  constructor(
    private readonly cancellations: BillingCancellationsRepository,
    private readonly billing: BillingProvider,
    @Inject(CANCELLATION_SCHEDULE) private readonly schedule: CancellationSchedule,
  ) {}

  /** False when nothing was due. A job takes no input: it works on whatever is due. */
  async execute(): Promise<boolean> {
    const cancellation = await this.cancellations.claimDue(CANCELLATION_LEASE_SECONDS);
    if (!cancellation) return false;
    await continueJobFrom(cancellation.headers, { name: 'billing cancellation', kind: SpanKind.CONSUMER }, () => this.attempt(cancellation));
    return true;
  }

  private async attempt(cancellation: DueCancellation): Promise<void> {
    try {
      const outcome = await this.billing.cancelSubscriptionItem(cancellation.subscriptionItemID);
      await this.cancellations.recordCanceled(cancellation.id);
      // eslint-disable-next-line @typescript-eslint/naming-convention -- log field names stay as log searches know them
      this.logger.log({ subscriptionItemId: cancellation.subscriptionItemID, outcome }, 'subscription item canceled');
    } catch (error) {
      const delayMs = retryDelayMs(this.schedule, cancellation.attempts + 1);
      await this.cancellations.recordFailure(cancellation.id, error instanceof Error ? error.message : String(error), delayMs / 1000);
      // eslint-disable-next-line @typescript-eslint/naming-convention -- log field names stay as log searches know them
      this.logger.warn({ subscriptionItemId: cancellation.subscriptionItemID, attempts: cancellation.attempts + 1, retryInMs: delayMs }, 'cancellation failed, will retry');
    }
  }
}
