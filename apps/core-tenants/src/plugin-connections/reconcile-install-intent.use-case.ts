import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { continueJobFrom, SpanKind } from '@platform/observability';
import { BillingProviderError } from './billing/billing.provider';
import { BillingCancellationWorker } from './billing/billing-cancellation.worker';
import { CANCELLATION_SCHEDULE, CancellationSchedule, retryDelayMs } from './billing/cancellation-schedule';
import { DueIntent, InstallIntentsRepository } from './install-intents.repository';
import { InstallProvisioning } from './install-provisioning';
import { VmProvider, VmProviderError } from './vms/vm.provider';

/**
 * A claimed intent is not picked again before this lease ends: longer than
 * the provider calls of one attempt, so two replicas never act on the same
 * intent at once. After a crash mid-attempt, it is retried when the lease ends.
 */
export const RECONCILE_LEASE_SECONDS = 60;

/**
 * One attempt at the most overdue install intent whose install is gone
 * (crashed, or failed after its intent was written):
 *
 * - its connection was committed: the intent is marked installed, nothing else;
 * - otherwise what the providers made is released. The provider create is
 *   asked again under the intent's key with the same parameters: the provider
 *   answers the resource the install made (or makes it now, if the install's
 *   call never arrived), so its id is known even when the install died before
 *   hearing it. A subscription item goes to the billing-cancellation outbox in
 *   the statement that undoes the intent (one row per item: canceled once);
 *   a VM is deleted (already gone counts as deleted) before the intent is
 *   undone. A definitive refusal from the provider means nothing was made.
 *
 * A failure records the attempt and plans the next one with the cancellation
 * backoff; the claim keeps every step to one replica.
 */
@Injectable()
export class ReconcileInstallIntentUseCase {
  private readonly logger = new Logger(ReconcileInstallIntentUseCase.name);

  constructor(
    private readonly intents: InstallIntentsRepository,
    private readonly provisioning: InstallProvisioning,
    private readonly vms: VmProvider,
    private readonly cancellations: BillingCancellationWorker,
    @Inject(CANCELLATION_SCHEDULE) private readonly schedule: CancellationSchedule,
  ) {}

  /** False when nothing was due. */
  async execute(): Promise<boolean> {
    const intent = await this.intents.claimDue(randomUUID(), RECONCILE_LEASE_SECONDS);
    if (!intent) return false;
    await continueJobFrom(intent.headers, { name: 'install reconciliation', kind: SpanKind.CONSUMER }, () => this.attempt(intent));
    return true;
  }

  private async attempt(intent: DueIntent): Promise<void> {
    try {
      if (intent.connected) {
        await this.intents.markInstalledByReconciler(intent.id, intent.claimID);
        this.logger.log({ pluginConnectionID: intent.id }, 'install intent finished: its connection was committed');
        return;
      }
      await this.undo(intent);
    } catch (error) {
      const delayMs = retryDelayMs(this.schedule, intent.attempts + 1);
      await this.intents.recordFailure(intent.id, intent.claimID, error instanceof Error ? error.message : String(error), delayMs / 1000);
      this.logger.warn({ pluginConnectionID: intent.id, attempts: intent.attempts + 1, retryInMs: delayMs }, 'install intent not reconciled, will retry');
    }
  }

  private async undo(intent: DueIntent): Promise<void> {
    const made = await this.provisioning
      .provision({ id: intent.id, generation: intent.generation, tenantID: intent.tenantID, kind: intent.kind, providerRequest: intent.providerRequest })
      .catch((error: unknown) => {
        if ((error instanceof BillingProviderError || error instanceof VmProviderError) && error.refused) return undefined;
        throw error;
      });
    if (made?.subscriptionItemID) {
      await this.intents.markUndoneCanceling(intent.id, intent.claimID, made.subscriptionItemID);
      this.cancellations.nudge();
    } else {
      if (made?.vmID) await this.vms.deleteVm(made.vmID);
      await this.intents.markUndone(intent.id, intent.claimID);
    }
    // eslint-disable-next-line @typescript-eslint/naming-convention -- log field names stay as log searches know them
    this.logger.log({ pluginConnectionID: intent.id, subscriptionItemId: made?.subscriptionItemID, vmId: made?.vmID }, 'install intent undone');
  }
}
