import { randomUUID } from 'node:crypto';
import { operatorMaySeeSession } from '@platform/conversations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { verified } from '../webhooks/webhook-receiver';
import { CONVERSATION_EVENT_TYPES, ConversationPlatform, startConversationPlatform } from './conversation-platform';

/**
 * A whole conversation through HTTP (docs/conversations.md): an owner makes
 * an inbox on a channel connection, the channel posts, an operator sees it
 * queued (operation 11) and counted (operation 14), takes it and replies,
 * the channel reports the reply delivered, the operator closes, and the
 * contact's next message opens a new session. Every step's webhook event
 * reaches the tenant's receiver signed, in order.
 */
describe('a conversation in motion', () => {
  let context: ConversationPlatform;
  const api = () => context.platform.api.services;

  beforeAll(async () => {
    context = await startConversationPlatform();
  });
  afterAll(() => context?.close());

  it('flows from the channel to an operator and back, each step an ordered, signed webhook event', async () => {
    const { tenantID, owner, member, channel } = context;
    const hook = await context.webhooks.endpoint(tenantID, { url: context.receiver.url('flow'), eventTypes: CONVERSATION_EVENT_TYPES });

    // The owner creates an inbox on the channel's connection.
    const created = await api().POST('/v1/tenants/{tenantID}/inboxes', {
      params: { path: { tenantID } },
      headers: { authorization: owner.authorization },
      body: { name: 'WhatsApp Vendas', channel: 'whatsapp', pluginConnectionID: channel.pluginConnectionID },
    });
    expect(created.response.status).toBe(201);
    const inbox = created.data!.data;
    expect(inbox).toMatchObject({ name: 'WhatsApp Vendas', channel: 'whatsapp', pluginConnectionID: channel.pluginConnectionID });
    const listed = await api().GET('/v1/tenants/{tenantID}/inboxes', { params: { path: { tenantID }, query: {} }, headers: { authorization: channel.authorization } });
    expect(listed.data!.data.map((each) => each.inboxID)).toEqual([inbox.inboxID]);

    // The channel posts what the contact wrote; a redelivery answers the same message and creates nothing.
    const post = (channelMessageID: string, content: string) =>
      api().POST('/v1/tenants/{tenantID}/inboxes/{inboxID}/messages', {
        params: { path: { tenantID, inboxID: inbox.inboxID } },
        headers: { authorization: channel.authorization },
        body: { contactHandle: '+5511987654321', contactName: 'Maria Souza', channelMessageID, content },
      });
    const first = await post('wamid.1', 'Olá, meu pedido não chegou.');
    expect(first.response.status).toBe(201);
    const { message: inbound, session: opened } = first.data!.data;
    expect(inbound).toMatchObject({ messageDirection: 'inbound', messageValue: 'Olá, meu pedido não chegou.', channelMessageID: 'wamid.1', deliveryStatus: null, inboxID: inbox.inboxID });
    expect(opened).toMatchObject({ sessionState: 'queued', operatorID: null, inboxID: inbox.inboxID, sessionLastMessageID: inbound.messageID, sessionListed: true });
    const again = await post('wamid.1', 'Olá, meu pedido não chegou.');
    expect(again.response.status).toBe(200);
    expect(again.data!.data.message).toEqual(inbound);
    const sessionID = opened.sessionID;
    const contactID = opened.contactID;

    // A member sees it queued in operation 11, and operation 14 counts it on the inbox.
    const sessions = await api().GET('/v1/tenants/{tenantID}/contacts/{contactID}/sessions', {
      params: { path: { tenantID, contactID }, query: {} },
      headers: { authorization: member.authorization },
    });
    expect(sessions.data!.data).toEqual([expect.objectContaining({ sessionID, operatorID: null, queuedAt: expect.any(String), lastMessage: expect.objectContaining({ messageValue: 'Olá, meu pedido não chegou.' }) })]);
    const counts = (operator = member) => api().GET('/v1/tenants/{tenantID}/notifications', { params: { path: { tenantID } }, headers: { authorization: operator.authorization } });
    await eventually(async () => expect((await counts()).data).toEqual({ [inbox.inboxID]: 1 }));
    await eventually(async () => expect((await counts(context.otherMember)).data).toEqual({ [inbox.inboxID]: 1 }));

    // The member takes it and replies; the others' counts clear, the member reads it.
    const sessionPath = { params: { path: { tenantID, sessionID } }, headers: { authorization: member.authorization } };
    const taken = await api().POST('/v1/tenants/{tenantID}/sessions/{sessionID}/take', sessionPath);
    expect(taken.data!.data).toMatchObject({ sessionState: 'assigned', operatorID: member.operatorID });
    await eventually(async () => expect((await counts(context.otherMember)).data).toEqual({}));
    const read = await api().POST('/v1/tenants/{tenantID}/sessions/{sessionID}/read', sessionPath);
    expect(read.data!.data).toEqual({ markedRead: 1 });
    expect((await counts()).data).toEqual({});
    const replied = await api().POST('/v1/tenants/{tenantID}/sessions/{sessionID}/messages', {
      ...sessionPath,
      headers: { ...sessionPath.headers, 'idempotency-key': randomUUID() },
      body: { content: 'Vou verificar agora.' },
    });
    expect(replied.response.status).toBe(201);
    const reply = replied.data!.data;
    expect(reply).toMatchObject({ messageDirection: 'outbound', deliveryStatus: 'pending', messageStatus: 0, operatorID: member.operatorID });

    // The channel reports the reply delivered.
    const delivered = await api().PUT('/v1/tenants/{tenantID}/messages/{messageID}/delivery-status', {
      params: { path: { tenantID, messageID: reply.messageID } },
      headers: { authorization: channel.authorization },
      body: { deliveryStatus: 'delivered' },
    });
    expect(delivered.data!.data).toMatchObject({ messageID: reply.messageID, deliveryStatus: 'delivered', messageStatus: 2 });

    // The session's messages, newest first.
    const page = await api().GET('/v1/tenants/{tenantID}/sessions/{sessionID}/messages', { ...sessionPath, params: { ...sessionPath.params, query: {} } });
    expect(page.data!.data.map((message) => [message.messageID, message.deliveryStatus])).toEqual([
      [reply.messageID, 'delivered'],
      [inbound.messageID, null],
    ]);

    // The member closes; the contact's next message opens a new, queued session.
    const closed = await api().POST('/v1/tenants/{tenantID}/sessions/{sessionID}/close', sessionPath);
    expect(closed.data!.data).toMatchObject({ sessionState: 'closed', sessionActive: false, closedAt: expect.any(String) });
    const next = await post('wamid.2', 'Chegou, obrigada!');
    expect(next.response.status).toBe(201);
    const reopened = next.data!.data.session;
    expect(reopened.sessionID).not.toBe(sessionID);
    expect(reopened).toMatchObject({ contactID, sessionState: 'queued' });

    // Each step's event arrived signed, in the order it happened, with the visibility snapshot as of its commit.
    const received = await eventually(() => {
      const all = context.receiver.to('flow').map((delivery) => verified(hook.secret, delivery));
      expect(all).toHaveLength(9);
      return all;
    });
    const ofFirst = received.filter((event) => (event.data as { sessionID: string }).sessionID === sessionID);
    expect(ofFirst.map((event) => event.type)).toEqual([
      'session.opened',
      'message.created',
      'session.assigned',
      'notifications.read',
      'message.created',
      'message.statusChanged',
      'session.closed',
    ]);
    const ofSecond = received.filter((event) => (event.data as { sessionID: string }).sessionID === reopened.sessionID);
    expect(ofSecond.map((event) => event.type)).toEqual(['session.opened', 'message.created']);
    const [openedEvent, createdEvent, assignedEvent] = ofFirst;
    expect(openedEvent.data).toEqual({
      sessionID,
      inboxID: inbox.inboxID,
      pluginConnectionID: channel.pluginConnectionID,
      listed: true,
      operatorID: null,
      participantIDs: [],
      session: expect.objectContaining({ sessionID, sessionState: 'queued', sessionLastMessageID: inbound.messageID }),
    });
    expect(createdEvent.data).toMatchObject({ sessionID, message: inbound });
    expect(assignedEvent.data).toMatchObject({ operatorID: member.operatorID, assignedByOperatorID: member.operatorID, session: taken.data!.data });
    expect(operatorMaySeeSession(member.operatorID, assignedEvent.data as never)).toBe(true);
    expect(ofFirst[3].data).toEqual({ operatorID: member.operatorID, sessionID, inboxID: inbox.inboxID, markedRead: 1 });
    expect(ofFirst[5].data).toMatchObject({ previousStatus: 'pending', message: delivered.data!.data });
    expect(ofFirst[6].data).toMatchObject({ closedByOperatorID: member.operatorID, session: closed.data!.data });
  });

  it('counts one unread notification per operator and session, however many messages arrive, until the operator reads it', async () => {
    const { tenantID, owner, member, otherChannel } = context;
    const created = await api().POST('/v1/tenants/{tenantID}/inboxes', {
      params: { path: { tenantID } },
      headers: { authorization: owner.authorization },
      body: { name: 'Chat do site', channel: 'web-chat', pluginConnectionID: otherChannel.pluginConnectionID },
    });
    const inboxID = created.data!.data.inboxID;
    const post = (contactHandle: string, content: string) =>
      api().POST('/v1/tenants/{tenantID}/inboxes/{inboxID}/messages', {
        params: { path: { tenantID, inboxID } },
        headers: { authorization: otherChannel.authorization },
        body: { contactHandle, channelMessageID: randomUUID(), content },
      });
    /** The member's unread count on this inbox (the first test left one on its own inbox). */
    const counts = async () => {
      const all = (await api().GET('/v1/tenants/{tenantID}/notifications', { params: { path: { tenantID } }, headers: { authorization: member.authorization } })).data!;
      return { [inboxID]: all[inboxID] };
    };

    const first = (await post('visitor-1', 'Oi')).data!.data.session.sessionID;
    await eventually(async () => expect(await counts()).toEqual({ [inboxID]: 1 }));
    await post('visitor-1', 'Alguém aí?');
    // A barrier: fan-outs run oldest first, so once the second contact's session counts, the second message's fan-out is done.
    await post('visitor-2', 'Olá');
    await eventually(async () => expect(await counts()).toEqual({ [inboxID]: 2 }));

    const read = await api().POST('/v1/tenants/{tenantID}/sessions/{sessionID}/read', {
      params: { path: { tenantID, sessionID: first } },
      headers: { authorization: member.authorization },
    });
    expect(read.data!.data).toEqual({ markedRead: 1 });
    expect(await counts()).toEqual({ [inboxID]: 1 });
  });
});
