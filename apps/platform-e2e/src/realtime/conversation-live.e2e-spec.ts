import { randomUUID } from 'node:crypto';
import { ConversationFixtures } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationPlatform, createInbox, Operator, startConversationPlatform } from '../conversations/conversation-platform';
import { eventually } from '../support/eventually';
import { Frame, GatewayReplica, startGateway, TestSocket } from './realtime-client';

const ENV = { REALTIME_RELAY_POLL_MS: '20', REALTIME_HEARTBEAT_SECONDS: '1' };

/** An event frame's event, as the gateway streams it. */
interface LiveEvent {
  id: string;
  type: string;
  data: { sessionID?: string; session?: unknown; message?: unknown; [field: string]: unknown };
}

/**
 * "Conversations in motion" over the real-time gateway (docs/realtime.md):
 * a conversation driven through services-api's REST routes reaches the
 * channel's plugin connection and the operators who may see it live, in
 * commit order, exactly as the REST reads show it; nothing of it reaches an
 * operator who may not see it or another tenant; and a client whose gateway
 * replica stops resumes on the other one without missing a step.
 */
describe('a conversation, live over the real-time gateway', () => {
  let context: ConversationPlatform;
  let replicas: GatewayReplica[];
  let inboxID: string;
  const api = () => context.platform.api.services;

  beforeAll(async () => {
    context = await startConversationPlatform();
    replicas = [await startGateway(context.platform, ENV), await startGateway(context.platform, ENV)];
    inboxID = await createInbox(context, 'WhatsApp Vendas');
  });

  afterAll(async () => {
    for (const replica of replicas ?? []) await replica.close();
    await context?.close();
  });

  /** An operator's socket, with a ticket for the tenant; `start` subscribes, or resumes from a position. */
  const operatorSocket = async (operator: Operator, replica: GatewayReplica, options: { tenantID?: string; start?: Frame } = {}) => {
    const response = await fetch(`${context.platform.servicesUrl}/v1/tenants/${options.tenantID ?? context.tenantID}/realtime-tickets`, {
      method: 'POST',
      headers: { authorization: operator.authorization },
    });
    expect(response.status).toBe(201);
    const { ticket } = ((await response.json()) as { data: { ticket: string } }).data;
    return subscribed(await TestSocket.connect(replica.url, { query: { ticket } }), options.start);
  };
  const connectionSocket = async (authorization: string, replica: GatewayReplica, start?: Frame) => subscribed(await TestSocket.connect(replica.url, { headers: { authorization } }), start);
  const subscribed = async (socket: TestSocket, frame: Frame = { type: 'subscribe' }) => {
    expect((await socket.start(frame)).type).toBe('subscribed');
    return socket;
  };
  /** The events a socket received of one session, in the order received. */
  const eventsOf = (socket: TestSocket, sessionID: string): LiveEvent[] =>
    socket
      .ofType('event')
      .map((frame) => frame.event as LiveEvent)
      .filter((event) => event.data.sessionID === sessionID);
  const typesOf = (socket: TestSocket, sessionID: string) => eventsOf(socket, sessionID).map((event) => event.type);

  /** The channel posts what a contact wrote. */
  const postInbound = (contactHandle: string, channelMessageID: string, content: string) =>
    api().POST('/v1/tenants/{tenantID}/inboxes/{inboxID}/messages', {
      params: { path: { tenantID: context.tenantID, inboxID } },
      headers: { authorization: context.channel.authorization },
      body: { contactHandle, channelMessageID, content },
    });
  const sessionCall = (operator: Operator, sessionID: string) => ({ params: { path: { tenantID: context.tenantID, sessionID } }, headers: { authorization: operator.authorization } });
  const reply = (operator: Operator, sessionID: string, content: string) =>
    api().POST('/v1/tenants/{tenantID}/sessions/{sessionID}/messages', {
      ...sessionCall(operator, sessionID),
      headers: { authorization: operator.authorization, 'idempotency-key': randomUUID() },
      body: { content },
    });
  const markDelivered = (messageID: string) =>
    api().PUT('/v1/tenants/{tenantID}/messages/{messageID}/delivery-status', {
      params: { path: { tenantID: context.tenantID, messageID } },
      headers: { authorization: context.channel.authorization },
      body: { deliveryStatus: 'delivered' },
    });

  it("shows nothing of a session to an operator who may not see it, while its assignee and the inbox's connection see every step", async () => {
    const { tenantID, owner, member, otherMember } = context;
    const [assignee, hidden, channel] = [await operatorSocket(member, replicas[0]), await operatorSocket(otherMember, replicas[1]), await connectionSocket(context.channel.authorization, replicas[1])];
    // No route unlists a session; the demo seed's older sessions are unlisted ones like this.
    const conversations = new ConversationFixtures(context.platform.dataSource);
    const sessionID = await conversations.session(tenantID, { contactID: await conversations.contact(tenantID), inboxID, listed: false });

    const assigned = await api().POST('/v1/tenants/{tenantID}/sessions/{sessionID}/assign', { ...sessionCall(owner, sessionID), body: { operatorID: member.operatorID } });
    expect(assigned.response.status).toBe(200);
    const replied = await reply(member, sessionID, 'Posso ajudar?');
    expect(replied.response.status).toBe(201);
    expect((await markDelivered(replied.data!.data.messageID)).response.status).toBe(200);
    const closed = await api().POST('/v1/tenants/{tenantID}/sessions/{sessionID}/close', sessionCall(member, sessionID));
    expect(closed.response.status).toBe(200);

    const steps = ['session.assigned', 'message.created', 'message.statusChanged', 'session.closed'];
    await eventually(() => expect(typesOf(assignee, sessionID)).toEqual(steps));
    await eventually(() => expect(typesOf(channel, sessionID)).toEqual(steps));
    // A barrier: a listed session opened after those steps reaches the hidden operator, so its stream has passed them.
    const barrier = (await postInbound('+5511900000001', randomUUID(), 'Oi')).data!.data.session.sessionID;
    await eventually(() => expect(typesOf(hidden, barrier)).toEqual(['session.opened', 'message.created']));
    expect(eventsOf(hidden, sessionID)).toEqual([]);
    for (const socket of [assignee, hidden, channel]) socket.close();
  });

  it('delivers every step to the connection and the operators live, in commit order, as REST shows it; another tenant gets nothing; a stopped replica loses nothing', async () => {
    const { member, otherOwner, otherTenantChannel } = context;
    // The sockets under test on the replica that will stop; another tenant's on both.
    const doomed = replicas[0];
    const operator = await operatorSocket(member, doomed);
    const channel = await connectionSocket(context.channel.authorization, doomed);
    const outsiders = [
      await operatorSocket(otherOwner, replicas[0], { tenantID: context.otherTenantID }),
      await operatorSocket(otherOwner, replicas[1], { tenantID: context.otherTenantID }),
      await connectionSocket(otherTenantChannel.authorization, replicas[1]),
    ];

    // The channel posts what the contact wrote; a session opens, queued.
    const first = await postInbound('+5511987654321', 'wamid.live.1', 'Olá, meu pedido não chegou.');
    expect(first.response.status).toBe(201);
    const { message: inbound, session: opened } = first.data!.data;
    const sessionID = opened.sessionID;
    // The member takes it and replies; the channel reports the reply delivered.
    const taken = await api().POST('/v1/tenants/{tenantID}/sessions/{sessionID}/take', sessionCall(member, sessionID));
    expect(taken.response.status).toBe(200);
    const replied = await reply(member, sessionID, 'Vou verificar agora.');
    expect(replied.response.status).toBe(201);
    const delivered = await markDelivered(replied.data!.data.messageID);
    expect(delivered.response.status).toBe(200);

    const live = ['session.opened', 'message.created', 'session.assigned', 'message.created', 'message.statusChanged'];
    for (const socket of [operator, channel]) await eventually(() => expect(typesOf(socket, sessionID)).toEqual(live));

    // The replica the two sockets are on stops: it asks them to reconnect and closes.
    const stopping = doomed.close();
    for (const socket of [operator, channel]) expect((await socket.closedWith()).code).toBe(1012);
    await stopping;
    // The member closes the session while they are away.
    const closed = await api().POST('/v1/tenants/{tenantID}/sessions/{sessionID}/close', sessionCall(member, sessionID));
    expect(closed.response.status).toBe(200);

    // Both resume on the other replica from their last offset, and miss nothing.
    const operatorAgain = await operatorSocket(member, replicas[1], { start: { type: 'resume', ...operator.position() } });
    const channelAgain = await connectionSocket(context.channel.authorization, replicas[1], { type: 'resume', ...channel.position() });
    for (const [before, after] of [
      [operator, operatorAgain],
      [channel, channelAgain],
    ]) {
      await eventually(() => expect(typesOf(after, sessionID)).toEqual(['session.closed']));
      expect([...typesOf(before, sessionID), ...typesOf(after, sessionID)]).toEqual([...live, 'session.closed']);
    }

    // Each event's payload is what the REST answers and reads show.
    const whole = [...eventsOf(operator, sessionID), ...eventsOf(operatorAgain, sessionID)];
    expect([...eventsOf(channel, sessionID), ...eventsOf(channelAgain, sessionID)]).toEqual(whole);
    expect(new Set(whole.map((event) => event.id)).size).toBe(whole.length);
    const [openedEvent, inboundEvent, assignedEvent, replyEvent, deliveredEvent, closedEvent] = whole;
    const read = await api().GET('/v1/tenants/{tenantID}/sessions/{sessionID}', sessionCall(member, sessionID));
    const page = await api().GET('/v1/tenants/{tenantID}/sessions/{sessionID}/messages', { ...sessionCall(member, sessionID), params: { path: { tenantID: context.tenantID, sessionID }, query: {} } });
    expect(openedEvent.data.session).toEqual(opened);
    expect(inboundEvent.data).toMatchObject({ session: opened, message: inbound });
    expect(assignedEvent.data).toMatchObject({ session: taken.data!.data, operatorID: member.operatorID, assignedByOperatorID: member.operatorID });
    expect(replyEvent.data.message).toEqual(replied.data!.data);
    expect(deliveredEvent.data).toMatchObject({ message: delivered.data!.data, previousStatus: 'pending' });
    expect(closedEvent.data.session).toEqual(read.data!.data);
    expect(closedEvent.data.session).toEqual(closed.data!.data);
    expect(page.data!.data).toEqual([deliveredEvent.data.message, inboundEvent.data.message]);
    for (const event of whole) expect(event.data).toMatchObject({ sessionID, inboxID, pluginConnectionID: context.channel.pluginConnectionID });

    // Another tenant's sockets, on either replica, received nothing (the first tenant's later events reached the other sockets on their replicas).
    // Their operator's sockets see their own tenant's presence only (the owner's own connection): nothing of the first tenant.
    for (const socket of outsiders) {
      expect(socket.eventIDsBesidesPresence()).toEqual([]);
      expect(socket.presenceOperatorIDs().every((operatorID) => operatorID === otherOwner.operatorID)).toBe(true);
    }
    for (const socket of [operatorAgain, channelAgain, ...outsiders]) socket.close();
  });
});
