import { runTransaction, SqlRunner } from '@platform/database';
import { fake, RecordingWebhookEvents } from '@platform/testing';
import type { DataSource } from 'typeorm';
import { ConversationEvents } from '../../src/conversations/conversation-events';
import type { NotificationCountEvents } from '../../src/conversations/notifications/notification-count-events';
import type { NotificationFanoutsRepository } from '../../src/conversations/notifications/notification-fanouts.repository';
import type { NotificationFanoutWorker } from '../../src/conversations/notifications/notification-fanout.worker';
import type { RoutingRequests } from '../../src/conversations/routing/routing-requests';
import type { NotificationMailsRepository } from '../../src/conversations/notifications/mails/delivery/notification-mails.repository';
import { SessionChanges } from '../../src/conversations/sessions/session-changes';
import type { SessionsRepository, SessionView } from '../../src/conversations/sessions/sessions.repository';
import { sessionView } from './conversations.fakes';

/**
 * A session's transitions over repository doubles that keep the session as
 * it is, from `before`: `written` lists, in order, what reached the database
 * (`close`, `join <operator>`, `transfer <operator>`, `enqueue clear`...), each marked when it was
 * not done in the transaction, then `commit`, and what happened after it
 * (`nudge fan-out`); `webhookEvents` the events appended.
 */
export function sessionChangesOver(before: SessionView) {
  const runner: SqlRunner = { query: async () => [] };
  const written: string[] = [];
  const webhookEvents = new RecordingWebhookEvents();
  const inTransaction = (used: SqlRunner | undefined) => (used === runner ? '' : ' outside the transaction');
  let current = before;
  const committingDataSource = fake<DataSource>({
    transaction: async <T>(work: (manager: SqlRunner) => Promise<T>): Promise<T> => {
      const result = await work(runner);
      written.push('commit');
      return result;
    },
  } as Partial<DataSource>);
  const sessions = fake<SessionsRepository>({
    // Through runTransaction, as the real repository: hooks registered with afterCommit run once committed.
    transaction: <T>(work: (runner: SqlRunner) => Promise<T>): Promise<T> => runTransaction(committingDataSource, work),
    lockedView: async () => current,
    view: async () => current,
    close: async (used: SqlRunner) => {
      written.push(`close${inTransaction(used)}`);
      current = sessionView({ ...current.session, sessionState: 'closed', sessionActive: false, closedAt: '2026-11-28T13:00:00.000Z' });
    },
    transfer: async (used: SqlRunner, _scope: unknown, _sessionID: string, operatorID: string) => {
      written.push(`transfer ${operatorID}${inTransaction(used)}`);
      // The previous assignee stays a participant, the new one is no longer one (the repository's TRANSFER).
      const previous = current.session.operatorID;
      const kept = current.session.operatorParticipantsIDs.filter((id) => id !== operatorID);
      const participants = previous && previous !== operatorID && !kept.includes(previous) ? [...kept, previous] : kept;
      current = sessionView({ ...current.session, operatorID, operatorParticipantsIDs: participants });
    },
    join: async (used: SqlRunner, _scope: unknown, _sessionID: string, operatorID: string) => {
      written.push(`join ${operatorID}${inTransaction(used)}`);
      current = sessionView({ ...current.session, operatorParticipantsIDs: [...current.session.operatorParticipantsIDs, operatorID] });
    },
  });
  const fanouts = fake<NotificationFanoutsRepository>({
    enqueue: async (used: SqlRunner, _scope: unknown, _sessionID: string, kind: string) => void written.push(`enqueue ${kind}${inTransaction(used)}`),
    notifyAssignment: async (used: SqlRunner, _scope: unknown, operatorID: string) => void written.push(`assignment ${operatorID}${inTransaction(used)}`),
  });
  const countEvents = fake<NotificationCountEvents>({
    announce: async (used: SqlRunner, _scope: unknown, operatorIDs: readonly string[]) => void written.push(`counts ${operatorIDs.join(',')}${inTransaction(used)}`),
  });
  const fanoutWorker = fake<NotificationFanoutWorker>({ nudge: () => void written.push('nudge fan-out') });
  const mails = fake<NotificationMailsRepository>({
    record: async (used: SqlRunner, _scope: unknown, item: { operatorID: string; kind: string }) => void written.push(`mail ${item.kind} ${item.operatorID}${inTransaction(used)}`),
  });
  // A transition that frees capacity asks for a routing pass in its transaction.
  const routingRequests = fake<RoutingRequests>({ request: async (used: SqlRunner) => void written.push(`routing request${inTransaction(used)}`) });
  const changes = new SessionChanges(sessions, fanouts, new ConversationEvents(webhookEvents.asEvents()), countEvents, fanoutWorker, mails, routingRequests);
  /** The events appended, as `type` with the runner they were appended in checked. */
  const appended = () => webhookEvents.events.map((entry) => `${entry.event.type}${inTransaction(entry.runner as SqlRunner)}`);
  return { changes, sessions, written, webhookEvents, appended };
}
