import { fake, FakeTenantAccess, RecordingWebhookEvents } from '@platform/testing';
import { runTransaction, SqlRunner } from '@platform/database';
import type { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { ConversationEvents } from '../conversation-events';
import { CONNECTION_ID, INBOX_ID, OPERATOR_ID, SESSION_ID, sessionView, TENANT_ID } from '../../../test/doubles/conversations.fakes';
import type { InboxesRepository, StoredInbox } from '../inboxes/inboxes.repository';
import type { NotificationCountEvents } from '../notifications/notification-count-events';
import type { NotificationFanoutsRepository } from '../notifications/notification-fanouts.repository';
import type { NotificationFanoutWorker } from '../notifications/notification-fanout.worker';
import type { NotificationMailsRepository } from '../notifications/mails/delivery/notification-mails.repository';
import type { SessionsRepository } from '../sessions/sessions.repository';
import type { MessagesRepository, StoredMessage } from './messages.repository';
import type { RoutingRequests } from '../routing/routing-requests';
import { PostInboundMessageUseCase } from './post-inbound-message.use-case';

const inbox: StoredInbox = { inboxID: INBOX_ID, name: 'WhatsApp', channel: 'whatsapp', pluginConnectionID: CONNECTION_ID, createdAt: new Date(), updatedAt: new Date() };
const stored: StoredMessage = {
  message: {
    messageID: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
    sessionID: SESSION_ID,
    inboxID: INBOX_ID,
    messageDirection: 'inbound',
    messageKey: 'text',
    messageStatus: 0,
    deliveryStatus: null,
    messageValue: 'Oi',
    channelMessageID: 'wamid.1',
    operatorID: null,
    createdAt: '2026-11-28T12:00:01.000Z',
    updatedAt: '2026-11-28T12:00:01.000Z',
  },
  position: { createdAt: '2026-11-28T12:00:01.000000Z', messageID: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d' },
};

function setUp(options: { existing?: boolean; opened?: boolean; assignee?: string | null; alreadyUnread?: boolean; conflict?: boolean; connectionID?: string } = {}) {
  const runner: SqlRunner = { query: async () => [] };
  const calls: string[] = [];
  const webhookEvents = new RecordingWebhookEvents();
  let existing = options.existing ?? false;
  // Commits through runTransaction, as the real repository: hooks registered with afterCommit run once committed.
  const committing = fake<DataSource>({
    transaction: async <T>(work: (manager: SqlRunner) => Promise<T>): Promise<T> => {
      const result = await work(runner);
      calls.push('commit');
      return result;
    },
  } as Partial<DataSource>);
  const view = sessionView(options.assignee ? { operatorID: options.assignee, sessionState: 'assigned' } : {});
  const useCase = new PostInboundMessageUseCase(
    new FakeTenantAccess().asAccess(),
    fake<InboxesRepository>({ live: async () => inbox, shareLive: async () => inbox }),
    fake<SessionsRepository>({
      contactOfHandle: async () => 'contact-1',
      openSessionOf: async () => ({ sessionID: SESSION_ID, opened: options.opened ?? false }),
      view: async () => view,
    }),
    fake<MessagesRepository>({
      transaction: <T>(work: (runner: SqlRunner) => Promise<T>): Promise<T> => runTransaction(committing, work),
      byChannelMessageID: async () => (existing ? stored : undefined),
      insertInbound: async () => {
        if (options.conflict) {
          existing = true;
          return undefined;
        }
        return stored;
      },
    }),
    fake<NotificationFanoutsRepository>({
      notifyOperator: async (_runner: SqlRunner, _scope: unknown, notification: { operatorID: string }) => {
        calls.push(`notify ${notification.operatorID}`);
        return !options.alreadyUnread;
      },
      enqueue: async (_runner: SqlRunner, _scope: unknown, _sessionID: string, kind: string) => void calls.push(`enqueue ${kind}`),
    }),
    new ConversationEvents(webhookEvents.asEvents()),
    fake<NotificationCountEvents>({
      announce: async (countsRunner: SqlRunner, _scope: unknown, operatorIDs: readonly string[]) => void calls.push(`counts ${operatorIDs.join(',')}${countsRunner === runner ? '' : ' outside the transaction'}`),
    }),
    fake<NotificationFanoutWorker>({ nudge: () => void calls.push('nudge') }),
    fake<NotificationMailsRepository>({
      record: async (mailRunner: SqlRunner, _scope: unknown, event: { operatorID: string; kind: string }) =>
        void calls.push(`mail ${event.kind} ${event.operatorID}${mailRunner === runner ? '' : ' outside the transaction'}`),
    }),
    fake<RoutingRequests>({ request: async () => undefined }),
    { messageContentMaxCharacters: 10, fanoutPollMs: 1000, retentionDays: 0, routingPollMs: 1000, routingSweepMs: 30_000 },
  );
  const principal = { kind: 'pluginConnection' as const, pluginConnectionID: options.connectionID ?? CONNECTION_ID, pluginID: 'plugin-1', tenantID: TENANT_ID };
  const post = (content = 'Oi') => useCase.execute({ principal, tenantID: TENANT_ID, inboxID: INBOX_ID, contactHandle: '+5511', channelMessageID: 'wamid.1', content });
  return { post, calls, webhookEvents, runner };
}

describe('PostInboundMessageUseCase', () => {
  it('opens a queued session: the session and message events in its transaction, one fan-out recorded, the loop nudged once it committed', async () => {
    const { post, calls, webhookEvents, runner } = setUp({ opened: true });
    const posted = await post();
    expect(posted.created).toBe(true);
    expect(webhookEvents.types()).toEqual(['session.opened', 'message.created']);
    expect(webhookEvents.events.every((entry) => entry.runner === runner && entry.event.subject === `session:${SESSION_ID}`)).toBe(true);
    expect(webhookEvents.events[1].event.data).toMatchObject({ sessionID: SESSION_ID, pluginConnectionID: CONNECTION_ID, listed: true, operatorID: null, participantIDs: [], message: stored.message });
    expect(calls).toEqual(['enqueue notify', 'commit', 'nudge']);
  });

  it("notifies an assigned session's assignee directly, with their counts in the message's transaction, and records no fan-out", async () => {
    const { post, calls, webhookEvents } = setUp({ assignee: OPERATOR_ID });
    await post();
    expect(webhookEvents.types()).toEqual(['message.created']);
    expect(calls).toEqual([`notify ${OPERATOR_ID}`, `counts ${OPERATOR_ID}`, `mail contactWrote ${OPERATOR_ID}`, 'commit']);
  });

  it('announces no counts when the assignee had an unread notification of the session already (their counts did not move)', async () => {
    const { post, calls } = setUp({ assignee: OPERATOR_ID, alreadyUnread: true });
    await post();
    expect(calls).toEqual([`notify ${OPERATOR_ID}`, `mail contactWrote ${OPERATOR_ID}`, 'commit']);
  });

  it('answers a channel message id the inbox has with that message, writing nothing', async () => {
    const { post, calls, webhookEvents } = setUp({ existing: true });
    expect(await post()).toMatchObject({ created: false, posted: { message: stored.message } });
    expect(webhookEvents.events).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('answers the stored message when a concurrent post stored it first (the insert found the conflict)', async () => {
    const { post } = setUp({ conflict: true });
    expect(await post()).toMatchObject({ created: false, posted: { message: stored.message } });
  });

  it("refuses another connection's inbox as unknown, and content over the cap", async () => {
    await expect(setUp({ connectionID: 'another' }).post()).rejects.toMatchObject({ key: 'InboxNotFound' });
    await expect(setUp().post('x'.repeat(11))).rejects.toMatchObject({ key: 'MessageContentTooLong' });
    expect((await setUp().post('😀'.repeat(10))).created).toBe(true);
  });
});
