import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationPlatform, createInbox, Operator, startConversationPlatform } from '../conversations/conversation-platform';
import { eventually } from '../support/eventually';
import { GatewayReplica, startGateway, TestSocket } from './realtime-client';

const ENV = { REALTIME_RELAY_POLL_MS: '20', REALTIME_HEARTBEAT_SECONDS: '1' };

/** A `notifications.counts` event as the gateway streams it. */
interface CountsEvent {
  id: string;
  type: 'notifications.counts';
  subject: string;
  data: { operatorID: string; counts: Record<string, number> };
}

/**
 * Operation 14's counts pushed over the real-time gateway (docs/realtime.md,
 * docs/conversations.md#events): whenever an operator's unread counts move
 * (a queued session's fan-out, a message to their assigned session, a take
 * clearing the others', a read), their sockets receive `notifications.counts`
 * with exactly what operation 14 answers them then; nobody else does.
 */
describe("an operator's notification counts, live over the real-time gateway", () => {
  let context: ConversationPlatform;
  let gateway: GatewayReplica;
  let inboxID: string;
  const api = () => context.platform.api.services;

  beforeAll(async () => {
    context = await startConversationPlatform();
    gateway = await startGateway(context.platform, ENV);
    inboxID = await createInbox(context, 'WhatsApp Suporte');
  });

  afterAll(async () => {
    await gateway?.close();
    await context?.close();
  });

  const subscribed = async (socket: TestSocket) => {
    expect((await socket.start({ type: 'subscribe' })).type).toBe('subscribed');
    return socket;
  };
  const operatorSocket = async (operator: Operator) => {
    const ticket = await api().POST('/v1/tenants/{tenantID}/realtime-tickets', { params: { path: { tenantID: context.tenantID } }, headers: { authorization: operator.authorization } });
    expect(ticket.response.status).toBe(201);
    return subscribed(await TestSocket.connect(gateway.url, { query: { ticket: ticket.data!.data.ticket } }));
  };

  /** Operation 14, as the operator asks it. */
  const operation14 = async (operator: Operator) => {
    const answer = await api().GET('/v1/tenants/{tenantID}/notifications', { params: { path: { tenantID: context.tenantID } }, headers: { authorization: operator.authorization } });
    expect(answer.response.status).toBe(200);
    return answer.data;
  };

  /** The `notifications.counts` events a socket received, each once (delivery is at least once). */
  const countsEvents = (socket: TestSocket): CountsEvent[] => {
    const events = socket
      .ofType('event')
      .map((frame) => frame.event as CountsEvent)
      .filter((event) => event.type === 'notifications.counts');
    return events.filter((event, index) => events.findIndex((other) => other.id === event.id) === index);
  };

  /** Waits for the socket's next counts event after the `seen` first ones, and answers its counts. */
  const nextCounts = async (socket: TestSocket, seen: number) => eventually(() => countsEvents(socket)[seen] ?? fail(`no counts event #${seen + 1} yet`)).then((event) => event.data.counts);

  const postInbound = async (contactHandle: string, channelMessageID: string) => {
    const posted = await api().POST('/v1/tenants/{tenantID}/inboxes/{inboxID}/messages', {
      params: { path: { tenantID: context.tenantID, inboxID } },
      headers: { authorization: context.channel.authorization },
      body: { contactHandle, channelMessageID, content: 'Olá, preciso de ajuda.' },
    });
    expect(posted.response.status).toBe(201);
    return posted.data!.data.session.sessionID;
  };
  const sessionCall = (operator: Operator, sessionID: string) => ({ params: { path: { tenantID: context.tenantID, sessionID } }, headers: { authorization: operator.authorization } });

  it('pushes each change of an operator\'s counts to their sockets, equal to what operation 14 answers then, and to no one else', async () => {
    const { member, otherMember } = context;
    const mine = await operatorSocket(member);
    const theirs = await operatorSocket(otherMember);
    const channel = await subscribed(await TestSocket.connect(gateway.url, { headers: { authorization: context.channel.authorization } }));

    // A queued session's message: the fan-out loop notifies every member, and each receives their own counts.
    const sessionID = await postInbound('+5511911110000', 'wamid.counts.1');
    const afterFanOut = await nextCounts(mine, 0);
    expect(afterFanOut).toEqual({ [inboxID]: 1 });
    expect(afterFanOut).toEqual(await operation14(member));
    expect(await nextCounts(theirs, 0)).toEqual(await operation14(otherMember));

    // The member takes it: the clear fan-out lowers the other member's counts (the taker keeps theirs).
    const taken = await api().POST('/v1/tenants/{tenantID}/sessions/{sessionID}/take', sessionCall(member, sessionID));
    expect(taken.response.status).toBe(200);
    const cleared = await nextCounts(theirs, 1);
    expect(cleared).toEqual({});
    expect(cleared).toEqual(await operation14(otherMember));

    // The member reads it: their counts fall.
    const read = await api().POST('/v1/tenants/{tenantID}/sessions/{sessionID}/read', sessionCall(member, sessionID));
    expect(read.data!.data).toEqual({ markedRead: 1 });
    const afterRead = await nextCounts(mine, 1);
    expect(afterRead).toEqual({});
    expect(afterRead).toEqual(await operation14(member));

    // The contact writes again: the assignee is notified in the message's transaction.
    expect(await postInbound('+5511911110000', 'wamid.counts.2')).toBe(sessionID);
    const afterAssignedMessage = await nextCounts(mine, 2);
    expect(afterAssignedMessage).toEqual({ [inboxID]: 1 });
    expect(afterAssignedMessage).toEqual(await operation14(member));

    // A barrier for the other member's stream: another queued session reaches them after everything above.
    await postInbound('+5511922220000', 'wamid.counts.3');
    expect(await nextCounts(theirs, 2)).toEqual(await operation14(otherMember));

    // Each socket received its own operator's counts only, in order; the channel's connection none.
    for (const [socket, operator, received] of [
      [mine, member, 4],
      [theirs, otherMember, 3],
    ] as const) {
      await eventually(() => expect(countsEvents(socket)).toHaveLength(received));
      for (const event of countsEvents(socket)) expect(event).toMatchObject({ subject: `operator:${operator.operatorID}`, data: { operatorID: operator.operatorID } });
    }
    expect(countsEvents(mine).map((event) => event.data.counts)).toEqual([{ [inboxID]: 1 }, {}, { [inboxID]: 1 }, { [inboxID]: 2 }]);
    expect(countsEvents(channel)).toEqual([]);
    for (const socket of [mine, theirs, channel]) socket.close();
  });
});

function fail(message: string): never {
  throw new Error(message);
}
