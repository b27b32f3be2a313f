import { randomUUID } from 'node:crypto';
import { testRedisSubscribers } from '@platform/testing';
import { transportNamespaceOf } from '@platform/transport';
import { outboxCommittedChannel } from '@platform/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationPlatform, createInbox, startConversationPlatform } from '../conversations/conversation-platform';
import { eventually } from '../support/eventually';
import { Frame, GatewayReplica, startGateway, TestSocket } from './realtime-client';

/**
 * The relay's poll set to a minute, its longest: every event below reaches
 * the socket well within that (the waits are 20 s), so what brought it is the
 * nudge services-api publishes once the change committed (docs/realtime.md,
 * Where events come from), not the poll.
 */
const POLL_MS = 60_000;
const WAIT_MS = 20_000;

describe('the real-time relay, nudged when conversation events commit', () => {
  let context: ConversationPlatform;
  let replica: GatewayReplica;
  let inboxID: string;

  beforeAll(async () => {
    context = await startConversationPlatform();
    replica = await startGateway(context.platform, { REALTIME_RELAY_POLL_MS: String(POLL_MS) });
    inboxID = await createInbox(context, 'WhatsApp Suporte');
  });

  afterAll(async () => {
    await replica?.close();
    await context?.close();
  });

  const postInbound = async () => {
    const answer = await context.platform.api.services.POST('/v1/tenants/{tenantID}/inboxes/{inboxID}/messages', {
      params: { path: { tenantID: context.tenantID, inboxID } },
      headers: { authorization: context.channel.authorization },
      body: { contactHandle: `+55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`, channelMessageID: `wamid.${randomUUID()}`, content: 'Meu pedido não chegou.' },
    });
    expect(answer.response.status).toBe(201);
    return answer.data!.data.message.messageID;
  };
  const createdEventOf = (socket: TestSocket, messageID: string) => () =>
    socket.ofType('event').find((frame: Frame) => {
      const event = frame.event as { type: string; data: { message?: { messageID: string } } };
      return event.type === 'message.created' && event.data.message?.messageID === messageID;
    }) ?? fail(`no message.created for ${messageID} yet`);

  it("delivers each inbound message's event to the channel's socket long before the relay's next poll", async () => {
    // The replica listens (its one look at start, and its look on subscribing, are behind us).
    const { TRANSPORT_NAMESPACE, DATABASE_URL } = context.platform.env;
    const channel = outboxCommittedChannel(transportNamespaceOf({ TRANSPORT_NAMESPACE, DATABASE_URL: DATABASE_URL! }));
    await eventually(async () => expect(await testRedisSubscribers(channel)).toBe(1));
    const socket = await TestSocket.connect(replica.url, { headers: { authorization: context.channel.authorization } });
    expect((await socket.start()).type).toBe('subscribed');

    // The first event, then a second once the relay has gone quiet again: neither could wait for a poll.
    for (let round = 0; round < 2; round += 1) {
      const messageID = await postInbound();
      await eventually(createdEventOf(socket, messageID), WAIT_MS);
    }
    socket.close();
  });
});

function fail(message: string): never {
  throw new Error(message);
}
