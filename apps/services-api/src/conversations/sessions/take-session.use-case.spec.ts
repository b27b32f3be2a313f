import type { SqlRunner } from '@platform/database';
import { fake, FakeTenantAccess, RecordingWebhookEvents, transactionOn } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { ConversationEvents } from '../conversation-events';
import { OPERATOR_ID, OTHER_OPERATOR_ID, SESSION_ID, sessionView, TENANT_ID } from '../../../test/doubles/conversations.fakes';
import type { NotificationCountEvents } from '../notifications/notification-count-events';
import type { NotificationFanoutsRepository } from '../notifications/notification-fanouts.repository';
import type { NotificationFanoutWorker } from '../notifications/notification-fanout.worker';
import type { NotificationMailsRepository } from '../notifications/mails/delivery/notification-mails.repository';
import { SessionChanges } from './session-changes';
import type { SessionsRepository, SessionView } from './sessions.repository';
import type { OperatorCapacity } from '../routing/operator-capacity';
import type { RoutingRequests } from '../routing/routing-requests';
import { TakeSessionUseCase } from './take-session.use-case';

function setUp(before: SessionView) {
  const runner: SqlRunner = { query: async () => [] };
  const written: string[] = [];
  const webhookEvents = new RecordingWebhookEvents();
  let current = before;
  const sessions = fake<SessionsRepository>({
    transaction: transactionOn(runner),
    lockedView: async () => current,
    view: async () => current,
    assign: async (_runner: SqlRunner, _scope: unknown, _sessionID: string, operatorID: string) => {
      written.push(`assign ${operatorID}`);
      current = sessionView({ operatorID, sessionState: 'assigned' });
    },
  });
  const fanouts = fake<NotificationFanoutsRepository>({ enqueue: async (_runner: SqlRunner, _scope: unknown, _id: string, kind: string) => void written.push(`enqueue ${kind}`) });
  const changes = new SessionChanges(sessions, fanouts, new ConversationEvents(webhookEvents.asEvents()), fake<NotificationCountEvents>({}), fake<NotificationFanoutWorker>({ nudge: () => undefined }), fake<NotificationMailsRepository>({}), fake<RoutingRequests>({}));
  const useCase = new TakeSessionUseCase(new FakeTenantAccess().asAccess(), sessions, changes, fake<OperatorCapacity>({ admit: async () => undefined }));
  const take = (operatorID = OPERATOR_ID) => useCase.execute({ principal: { kind: 'operator', operatorID }, tenantID: TENANT_ID, sessionID: SESSION_ID });
  return { take, written, webhookEvents };
}

describe('TakeSessionUseCase', () => {
  it('assigns a queued session to the operator, clears the others\' notifications later, and emits session.assigned with the new snapshot', async () => {
    const { take, written, webhookEvents } = setUp(sessionView());
    expect(await take()).toMatchObject({ operatorID: OPERATOR_ID, sessionState: 'assigned' });
    expect(written).toEqual([`assign ${OPERATOR_ID}`, 'enqueue clear']);
    expect(webhookEvents.events.map((entry) => entry.event)).toEqual([
      { type: 'session.assigned', subject: `session:${SESSION_ID}`, data: expect.objectContaining({ operatorID: OPERATOR_ID, assignedByOperatorID: OPERATOR_ID, listed: true }) },
    ]);
  });

  it('refuses an assigned session (409 1943), a closed one (409 1942) and one the operator may not see (404 1060), writing nothing', async () => {
    for (const [before, key] of [
      [sessionView({ operatorID: OTHER_OPERATOR_ID, sessionState: 'assigned' }), 'SessionAlreadyAssigned'],
      [sessionView({ closedAt: '2026-11-28T13:00:00.000Z', sessionState: 'closed' }), 'SessionClosed'],
      [sessionView({ sessionListed: false, operatorID: OTHER_OPERATOR_ID, sessionState: 'assigned' }), 'SessionNotFound'],
    ] as const) {
      const { take, written, webhookEvents } = setUp(before);
      await expect(take()).rejects.toMatchObject({ key });
      expect(written).toEqual([]);
      expect(webhookEvents.events).toEqual([]);
    }
  });
});
