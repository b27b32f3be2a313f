import { Logger } from '@nestjs/common';
import { beforeAll, describe, expect, it } from 'vitest';
import { fake } from '@platform/testing';
import { BillingProvider } from './billing.provider';
import type { BillingCancellationsRepository, DueCancellation } from './billing-cancellations.repository';
import { CANCELLATION_LEASE_SECONDS, CancelDueSubscriptionItemUseCase } from './cancel-due-subscription-item.use-case';
import type { CancellationSchedule } from './cancellation-schedule';

const schedule: CancellationSchedule = { pollMs: 1_000, retryBaseMs: 2_000, retryMaxMs: 60_000 };

/** The outbox's due rows, in claim order, and what was recorded of each attempt. */
class FakeCancellations {
  readonly leases: number[] = [];
  readonly canceled: string[] = [];
  readonly failures: { id: string; error: string; retryInSeconds: number }[] = [];

  constructor(private readonly due: DueCancellation[]) {}

  asRepository(): BillingCancellationsRepository {
    return fake<BillingCancellationsRepository>({
      claimDue: async (leaseSeconds: number) => {
        this.leases.push(leaseSeconds);
        return this.due.shift();
      },
      recordCanceled: async (id: string) => {
        this.canceled.push(id);
      },
      recordFailure: async (id: string, error: string, retryInSeconds: number) => {
        this.failures.push({ id, error, retryInSeconds });
      },
    });
  }
}

/** A billing provider answering each cancellation as the test says. */
class FakeBilling extends BillingProvider {
  readonly asked: string[] = [];

  constructor(private readonly answer: (item: string) => 'canceled' | 'already-gone' | Error) {
    super();
  }

  async createSubscriptionItem(): Promise<string> {
    throw new Error('not used');
  }

  async cancelSubscriptionItem(subscriptionItemID: string): Promise<'canceled' | 'already-gone'> {
    this.asked.push(subscriptionItemID);
    const answer = this.answer(subscriptionItemID);
    if (answer instanceof Error) throw answer;
    return answer;
  }
}

const due = (id: string, attempts = 0): DueCancellation => ({ id, subscriptionItemID: `si_${id}`, attempts, headers: null });

function useCase(rows: DueCancellation[], answer: (item: string) => 'canceled' | 'already-gone' | Error = () => 'canceled') {
  const cancellations = new FakeCancellations(rows);
  const billing = new FakeBilling(answer);
  return { cancellations, billing, cancelDue: new CancelDueSubscriptionItemUseCase(cancellations.asRepository(), billing, schedule) };
}

describe('CancelDueSubscriptionItemUseCase', () => {
  // Each attempt logs its outcome; the assertions read the recorded rows instead.
  beforeAll(() => Logger.overrideLogger(false));

  it('answers false and calls no provider when nothing is due', async () => {
    const { cancelDue, billing } = useCase([]);
    expect(await cancelDue.execute()).toBe(false);
    expect(billing.asked).toEqual([]);
  });

  it('cancels the claimed item at the provider and records it done, claiming with the lease', async () => {
    const { cancelDue, cancellations, billing } = useCase([due('c1'), due('c2')]);
    expect(await cancelDue.execute()).toBe(true);
    expect(billing.asked).toEqual(['si_c1']);
    expect(cancellations).toMatchObject({ leases: [CANCELLATION_LEASE_SECONDS], canceled: ['c1'], failures: [] });
  });

  it('records an item the provider no longer has as done', async () => {
    const { cancelDue, cancellations } = useCase([due('c1')], () => 'already-gone');
    await cancelDue.execute();
    expect(cancellations.canceled).toEqual(['c1']);
  });

  it("records a provider failure with its message and retries after the base delay, jittered by at most 20% down", async () => {
    const { cancelDue, cancellations } = useCase([due('c1')], () => new Error('503 from billing'));
    expect(await cancelDue.execute()).toBe(true);
    expect(cancellations.canceled).toEqual([]);
    const [failure] = cancellations.failures;
    expect(failure).toMatchObject({ id: 'c1', error: '503 from billing' });
    expect(failure.retryInSeconds).toBeGreaterThanOrEqual(1.6);
    expect(failure.retryInSeconds).toBeLessThanOrEqual(2);
  });

  it('doubles the delay with each failed attempt', async () => {
    const { cancelDue, cancellations } = useCase([due('c1', 2)], () => new Error('timeout'));
    await cancelDue.execute();
    expect(cancellations.failures[0].retryInSeconds).toBeGreaterThanOrEqual(6.4);
    expect(cancellations.failures[0].retryInSeconds).toBeLessThanOrEqual(8);
  });

  it('caps the delay at the maximum however many attempts failed', async () => {
    const { cancelDue, cancellations } = useCase([due('c1', 40)], () => new Error('timeout'));
    await cancelDue.execute();
    expect(cancellations.failures[0].retryInSeconds).toBeGreaterThanOrEqual(48);
    expect(cancellations.failures[0].retryInSeconds).toBeLessThanOrEqual(60);
  });
});
