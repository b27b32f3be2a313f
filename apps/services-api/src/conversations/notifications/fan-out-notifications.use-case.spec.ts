import type { SqlRunner } from '@platform/database';
import { fake } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { SESSION_ID, TENANT_ID } from '../../../test/doubles/conversations.fakes';
import { FanOutNotificationsUseCase } from './fan-out-notifications.use-case';
import type { NotificationCountEvents } from './notification-count-events';
import type { DueFanout, NotificationFanoutsRepository } from './notification-fanouts.repository';

const due: DueFanout = { id: 'f1', tenantID: TENANT_ID, sessionID: SESSION_ID, kind: 'notify' };

/** The fan-outs due, oldest first, claimed and deleted in a transaction that commits unless its work fails (then nothing it did stays). */
function setUp(pending: DueFanout[], options: { announceFails?: boolean } = {}) {
  const runner: SqlRunner = { query: async () => [] };
  const committed: string[] = [];
  let uncommitted: string[] = [];
  const inTransaction = (used: SqlRunner) => (used === runner ? '' : ' outside the transaction');
  const fanouts = fake<NotificationFanoutsRepository>({
    transaction: async <T>(work: (runner: SqlRunner) => Promise<T>): Promise<T> => {
      uncommitted = [];
      const result = await work(runner);
      committed.push(...uncommitted, 'commit');
      return result;
    },
    claim: async (used: SqlRunner) => {
      uncommitted.push(`claim${inTransaction(used)}`);
      return pending[0];
    },
    carryOut: async (used: SqlRunner, fanout: DueFanout) => {
      uncommitted.push(`carry out ${fanout.id}${inTransaction(used)}`);
      return ['operator-a', 'operator-b'];
    },
    delete: async (used: SqlRunner, fanoutID: string) => {
      uncommitted.push(`delete ${fanoutID}${inTransaction(used)}`);
      pending.splice(pending.findIndex((fanout) => fanout.id === fanoutID), 1);
    },
  });
  const countEvents = fake<NotificationCountEvents>({
    announce: async (used: SqlRunner, scope: { tenantID: string }, operatorIDs: readonly string[]) => {
      if (options.announceFails) throw new Error('the outbox is away');
      uncommitted.push(`counts ${scope.tenantID} ${operatorIDs.join(',')}${inTransaction(used)}`);
    },
  });
  const useCase = new FanOutNotificationsUseCase(fanouts, countEvents);
  return { run: () => useCase.execute(), committed, pending };
}

describe('FanOutNotificationsUseCase', () => {
  it("carries out the oldest fan-out, announces the counts of every operator it moved in its tenant, and deletes it, in one transaction", async () => {
    const { run, committed, pending } = setUp([due, { ...due, id: 'f2' }]);
    expect(await run()).toBe(true);
    expect(committed).toEqual(['claim', 'carry out f1', `counts ${TENANT_ID} operator-a,operator-b`, 'delete f1', 'commit']);
    expect(pending.map((fanout) => fanout.id)).toEqual(['f2']);
  });

  it('answers false, doing nothing, when none is due', async () => {
    const { run, committed } = setUp([]);
    expect(await run()).toBe(false);
    expect(committed).toEqual(['claim', 'commit']);
  });

  it('fails whole when a step fails: nothing commits, the fan-out stays due', async () => {
    const { run, committed, pending } = setUp([due], { announceFails: true });
    await expect(run()).rejects.toThrow('the outbox is away');
    expect(committed).toEqual([]);
    expect(pending).toEqual([due]);
  });
});
