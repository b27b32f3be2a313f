import { Logger } from '@nestjs/common';
import { beforeAll, describe, expect, it } from 'vitest';
import { fake } from '@platform/testing';
import { BillingProvider, BillingProviderError } from './billing/billing.provider';
import type { BillingCancellationWorker } from './billing/billing-cancellation.worker';
import type { DueIntent, InstallIntentsRepository } from './install-intents.repository';
import { InstallProvisioning } from './install-provisioning';
import { ReconcileInstallIntentUseCase } from './reconcile-install-intent.use-case';
import { VmProvider } from './vms/vm.provider';

const intentID = '7e1f0c2a-3b4d-8e5f-9a6b-0c1d2e3f4a5b';
const tenantID = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';

/** What the reconciler did to the intent, in order. */
class FakeIntents {
  readonly done: unknown[][] = [];
  constructor(private readonly due: DueIntent | undefined) {}

  asRepository(): InstallIntentsRepository {
    let claimed = false;
    return fake<InstallIntentsRepository>({
      claimDue: async () => {
        if (claimed) return undefined;
        claimed = true;
        return this.due;
      },
      markInstalledByReconciler: async (...args: unknown[]) => void this.done.push(['installed', ...args]),
      markUndone: async (...args: unknown[]) => (this.done.push(['undone', ...args]), true),
      markUndoneCanceling: async (...args: unknown[]) => void this.done.push(['undone-canceling', ...args]),
      recordFailure: async (id: string, claimID: string, error: string) => void this.done.push(['failure', id, claimID, error]),
    });
  }
}

class ReplayingBilling extends BillingProvider {
  readonly keys: string[] = [];
  answer: 'item' | 'refused' | 'down' = 'item';
  async createSubscriptionItem(input: { idempotencyKey: string }): Promise<string> {
    this.keys.push(input.idempotencyKey);
    if (this.answer === 'refused') throw new BillingProviderError('price gone', { refused: true });
    if (this.answer === 'down') throw new BillingProviderError('503');
    return 'si_made_by_the_dead_install';
  }
  async cancelSubscriptionItem(): Promise<'canceled'> {
    throw new Error('the reconciler cancels through the outbox, never directly');
  }
}

class ReplayingVms extends VmProvider {
  readonly events: string[] = [];
  async createVm(input: { idempotencyKey: string }): Promise<string> {
    this.events.push(`create ${input.idempotencyKey}`);
    return 'vm-made-by-the-dead-install';
  }
  async deleteVm(vmID: string): Promise<void> {
    this.events.push(`delete ${vmID}`);
  }
}

function reconcile(intent: Partial<DueIntent>) {
  const due: DueIntent = {
    id: intentID,
    tenantID,
    kind: 'paid',
    // eslint-disable-next-line @typescript-eslint/naming-convention -- the keys stored in provider_request rows (ProviderRequest)
    providerRequest: { subscriptionId: 'sub_1', priceId: 'price_1' },
    generation: 0,
    attempts: 0,
    claimID: 'claim-1',
    headers: null,
    connected: false,
    ...intent,
  };
  const intents = new FakeIntents(due);
  const billing = new ReplayingBilling();
  const vms = new ReplayingVms();
  const nudges: number[] = [];
  const cancellations = fake<BillingCancellationWorker>({ nudge: () => void nudges.push(1) });
  const useCase = new ReconcileInstallIntentUseCase(intents.asRepository(), new InstallProvisioning(billing, vms), vms, cancellations, {
    pollMs: 100,
    retryBaseMs: 1000,
    retryMaxMs: 4000,
  });
  return { intents, billing, vms, nudges, execute: () => useCase.execute() };
}

describe('ReconcileInstallIntentUseCase', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('marks the intent installed, calling no provider, when its connection was committed', async () => {
    const { intents, billing, execute } = reconcile({ connected: true });
    expect(await execute()).toBe(true);
    expect(intents.done).toEqual([['installed', intentID, 'claim-1']]);
    expect(billing.keys).toEqual([]);
  });

  it("learns the dead install's item by asking again under the intent's key, and records its cancellation with the undo", async () => {
    const { intents, billing, nudges, execute } = reconcile({});
    await execute();
    expect(billing.keys).toEqual([`install-${intentID}`]);
    expect(intents.done).toEqual([['undone-canceling', intentID, 'claim-1', 'si_made_by_the_dead_install']]);
    expect(nudges).toHaveLength(1);
  });

  it('uses the key of the generation the intent is in', async () => {
    const { billing, execute } = reconcile({ generation: 2 });
    await execute();
    expect(billing.keys).toEqual([`install-${intentID}-2`]);
  });

  it('deletes the VM before marking the intent undone', async () => {
    const { intents, vms, execute } = reconcile({ kind: 'hosted', providerRequest: { image: 'gateway:1' } });
    await execute();
    expect(vms.events).toEqual([`create install-${intentID}`, 'delete vm-made-by-the-dead-install']);
    expect(intents.done).toEqual([['undone', intentID, 'claim-1']]);
  });

  it('marks the intent undone when the provider refuses: it made nothing', async () => {
    const { intents, billing, execute } = reconcile({});
    billing.answer = 'refused';
    await execute();
    expect(intents.done).toEqual([['undone', intentID, 'claim-1']]);
  });

  it('records a failure to retry later when the provider is down', async () => {
    const { intents, billing, execute } = reconcile({});
    billing.answer = 'down';
    await execute();
    expect(intents.done).toEqual([['failure', intentID, 'claim-1', '503']]);
  });

  it('answers false when nothing is due', async () => {
    const { execute } = reconcile({});
    await execute();
    expect(await execute()).toBe(false);
  });
});
