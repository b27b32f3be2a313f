import type { SqlRunner } from '@platform/database';
import { fake, FakeTenantAccess, RecordingWebhookEvents, transactionOn } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { ConversationEvents } from '../conversation-events';
import { OPERATOR_ID, OTHER_OPERATOR_ID, SESSION_ID, sessionView, TENANT_ID } from '../../../test/doubles/conversations.fakes';
import type { NotificationCountEvents } from '../notifications/notification-count-events';
import type { NotificationFanoutsRepository } from '../notifications/notification-fanouts.repository';
import type { NotificationFanoutWorker } from '../notifications/notification-fanout.worker';
import type { NotificationMailsRepository } from '../notifications/mails/delivery/notification-mails.repository';
import type { OperatorCapacity } from '../routing/operator-capacity';
import type { RoutingRequests } from '../routing/routing-requests';
import { AssignSessionUseCase } from './assign-session.use-case';
import { TenantRoles } from './session-access';
import { SessionChanges } from './session-changes';
import type { SessionsRepository } from './sessions.repository';

function setUp() {
  const runner: SqlRunner = { query: async () => [] };
  const written: string[] = [];
  const inTransaction = (used: SqlRunner) => (used === runner ? '' : ' outside the transaction');
  let current = sessionView();
  const sessions = fake<SessionsRepository>({
    transaction: transactionOn(runner),
    lockedView: async () => current,
    view: async () => current,
    assign: async (_runner: SqlRunner, _scope: unknown, _sessionID: string, operatorID: string) => {
      current = sessionView({ operatorID, sessionState: 'assigned' });
    },
  });
  const fanouts = fake<NotificationFanoutsRepository>({
    notifyAssignment: async (used: SqlRunner, _scope: unknown, operatorID: string) => void written.push(`assignment ${operatorID}${inTransaction(used)}`),
    enqueue: async (used: SqlRunner, _scope: unknown, _id: string, kind: string) => void written.push(`enqueue ${kind}${inTransaction(used)}`),
  });
  const countEvents = fake<NotificationCountEvents>({
    announce: async (used: SqlRunner, _scope: unknown, operatorIDs: readonly string[]) => void written.push(`counts ${operatorIDs.join(',')}${inTransaction(used)}`),
  });
  const mails = fake<NotificationMailsRepository>({
    record: async (used: SqlRunner, _scope: unknown, event: { operatorID: string; kind: string }) => void written.push(`mail ${event.kind} ${event.operatorID}${inTransaction(used)}`),
  });
  const access = new FakeTenantAccess().asAccess();
  const webhookEvents = new RecordingWebhookEvents();
  const changes = new SessionChanges(sessions, fanouts, new ConversationEvents(webhookEvents.asEvents()), countEvents, fake<NotificationFanoutWorker>({ nudge: () => undefined }), mails, fake<RoutingRequests>({}));
  const useCase = new AssignSessionUseCase(access, new TenantRoles(access), sessions, changes, fake<OperatorCapacity>({ admit: async () => undefined }));
  const assign = (operatorID: string) => useCase.execute({ principal: { kind: 'operator', operatorID: OPERATOR_ID }, tenantID: TENANT_ID, sessionID: SESSION_ID, operatorID, override: false });
  return { assign, written };
}

describe('AssignSessionUseCase', () => {
  it("gives the member it assigns an assignment notification, their counts and a notification mail item, in the assignment's transaction", async () => {
    const { assign, written } = setUp();
    expect(await assign(OTHER_OPERATOR_ID)).toMatchObject({ operatorID: OTHER_OPERATOR_ID, sessionState: 'assigned' });
    expect(written).toEqual([`assignment ${OTHER_OPERATOR_ID}`, `counts ${OTHER_OPERATOR_ID}`, `mail assigned ${OTHER_OPERATOR_ID}`, 'enqueue clear']);
  });

  it('announces no counts when the owner assigns it to themself (nothing of theirs moved yet)', async () => {
    const { assign, written } = setUp();
    await assign(OPERATOR_ID);
    expect(written).toEqual(['enqueue clear']);
  });
});
