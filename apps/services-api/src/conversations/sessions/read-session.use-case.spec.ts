import type { SqlRunner } from '@platform/database';
import { fake, FakeTenantAccess, transactionOn } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import type { ConversationEvents } from '../conversation-events';
import { OPERATOR_ID, SESSION_ID, sessionView, TENANT_ID } from '../../../test/doubles/conversations.fakes';
import type { NotificationCountEvents } from '../notifications/notification-count-events';
import type { NotificationFanoutsRepository } from '../notifications/notification-fanouts.repository';
import { ReadSessionUseCase } from './read-session.use-case';
import type { SessionsRepository } from './sessions.repository';

function setUp(unread: number) {
  const runner: SqlRunner = { query: async () => [] };
  const written: string[] = [];
  const inTransaction = (used: SqlRunner) => (used === runner ? '' : ' outside the transaction');
  const sessions = fake<SessionsRepository>({ view: async () => sessionView({ operatorID: OPERATOR_ID, sessionState: 'assigned' }) });
  const fanouts = fake<NotificationFanoutsRepository>({
    transaction: transactionOn(runner),
    markRead: async (used: SqlRunner) => {
      written.push(`mark read${inTransaction(used)}`);
      return unread;
    },
  });
  const events = fake<ConversationEvents>({
    notificationsRead: async (used: SqlRunner, _scope: unknown, data: { operatorID: string }) => void written.push(`notifications.read ${data.operatorID}${inTransaction(used)}`),
  });
  const countEvents = fake<NotificationCountEvents>({
    hold: async (used: SqlRunner, _scope: unknown, operatorIDs: readonly string[]) => void written.push(`count lock ${operatorIDs.join(',')}${inTransaction(used)}`),
    announce: async (used: SqlRunner, _scope: unknown, operatorIDs: readonly string[]) => void written.push(`counts ${operatorIDs.join(',')}${inTransaction(used)}`),
  });
  const useCase = new ReadSessionUseCase(new FakeTenantAccess().asAccess(), sessions, fanouts, events, countEvents);
  const read = () => useCase.execute({ principal: { kind: 'operator', operatorID: OPERATOR_ID }, tenantID: TENANT_ID, sessionID: SESSION_ID });
  return { read, written };
}

describe('ReadSessionUseCase', () => {
  it("takes the operator's count lock before appending notifications.read, so two reads by one operator append their events in commit order", async () => {
    const { read, written } = setUp(2);
    expect(await read()).toEqual({ markedRead: 2 });
    expect(written).toEqual(['mark read', `count lock ${OPERATOR_ID}`, `notifications.read ${OPERATOR_ID}`, `counts ${OPERATOR_ID}`]);
  });

  it('appends nothing and takes no lock when nothing was unread', async () => {
    const { read, written } = setUp(0);
    expect(await read()).toEqual({ markedRead: 0 });
    expect(written).toEqual(['mark read']);
  });
});
