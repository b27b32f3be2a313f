import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationPlatform, createInbox, startConversationPlatform } from '../conversations/conversation-platform';
import { Frame, GatewayReplica, startGateway, TestSocket } from '../realtime/realtime-client';
import { eventually } from '../support/eventually';
import { OwnCluster } from './own-cluster';

/** An answer of the REST API as the typed client gives it. */
interface Answer {
  response: Response;
  data?: { data: { message: { messageID: string }; session: { sessionID: string } } };
  error?: unknown;
}

/**
 * A conversation goes on while the Redis Cluster master serving its tenant is
 * killed and its replica takes over (docs/realtime.md, docs/scaling.md). What
 * the platform promises holds throughout: every inbound message a channel
 * posts is stored once its answer says so, or refused in the envelope and
 * stored when posted again; an operator's socket gets every message's event
 * in order, or is told to resync, never a silent gap; the conversation goes
 * on once the cluster is whole. The spec runs on a cluster of its own and
 * stops it at the end, so the other cluster suites never see the failover.
 */
describe('a conversation across the failover of a Redis Cluster master', () => {
  let cluster: OwnCluster;
  let context: ConversationPlatform;
  let gateway: GatewayReplica;
  let inboxID: string;
  /** Every frame the operator received, over each socket in turn. */
  const frames: Frame[] = [];
  const sockets: TestSocket[] = [];
  let following = true;

  beforeAll(async () => {
    cluster = OwnCluster.start();
    context = await startConversationPlatform(cluster.env());
    gateway = await startGateway(context.platform, { ...cluster.env(), REALTIME_RELAY_POLL_MS: '20', REALTIME_HEARTBEAT_SECONDS: '1' });
    inboxID = await createInbox(context, 'WhatsApp Failover');
  }, 120_000);

  afterAll(async () => {
    following = false;
    for (const socket of sockets) socket.close();
    await gateway?.close();
    await context?.close();
    cluster?.stop();
  }, 120_000);

  const api = () => context.platform.api.services;
  const postInbound = (channelMessageID: string, content: string): Promise<Answer> =>
    api().POST('/v1/tenants/{tenantID}/inboxes/{inboxID}/messages', {
      params: { path: { tenantID: context.tenantID, inboxID } },
      headers: { authorization: context.channel.authorization },
      body: { contactHandle: '+5511955550000', channelMessageID, content },
    }) as Promise<Answer>;

  /** The owner's socket as a client keeps it: opened with a fresh ticket, and when it closes, resumed from its last position on a new one. */
  const follow = async (start: Frame = { type: 'subscribe' }): Promise<void> => {
    const socket = await eventually(async () => {
      const ticketAnswer = await fetch(`${context.platform.servicesUrl}/v1/tenants/${context.tenantID}/realtime-tickets`, {
        method: 'POST',
        headers: { authorization: context.owner.authorization },
      });
      expect(ticketAnswer.status).toBe(201);
      const { ticket } = ((await ticketAnswer.json()) as { data: { ticket: string } }).data;
      const opened = await TestSocket.connect(gateway.url, { query: { ticket } });
      const answer = await opened.start(start);
      if (!['subscribed', 'resync-required'].includes(answer.type)) {
        opened.close();
        throw new Error(`answered ${JSON.stringify(answer)}`);
      }
      return opened;
    });
    sockets.push(socket);
    socket.socket.once('close', () => {
      const position = positionOf(socket);
      frames.push(...socket.frames);
      if (following) void follow(position ? { type: 'resume', ...position } : { type: 'subscribe' });
    });
  };
  const positionOf = (socket: TestSocket) => {
    try {
      return socket.position();
    } catch {
      return undefined;
    }
  };
  /** What the operator has received so far, the open socket's frames included. */
  const received = (): Frame[] => [...frames, ...(sockets.at(-1)?.closed ? [] : (sockets.at(-1)?.frames ?? []))];
  /** The messages whose message.created the operator received, each once, in the order of arrival. */
  const createdMessageIDs = (): string[] => [
    ...new Set(
      received()
        .filter((frame) => frame.type === 'event')
        .map((frame) => frame.event as { type: string; data: { message?: { messageID?: string } } })
        .filter((event) => event.type === 'message.created')
        .map((event) => event.data.message?.messageID ?? ''),
    ),
  ];

  it('stores every message it acknowledged and delivers each in order to the operator, or tells it to resync; the conversation goes on after the replica takes over', async () => {
    await follow();
    const stored: string[] = [];
    const accepted = (answer: Answer, what: string) => {
      expect(answer.response.status, `${what}: ${JSON.stringify(answer.error)}`).toBeOneOf([200, 201]);
      stored.push(answer.data!.data.message.messageID);
      return answer.data!.data;
    };

    const { session } = accepted(await postInbound('wamid.failover.1', 'Olá'), 'before the failover');
    accepted(await postInbound('wamid.failover.2', 'Meu pedido não chegou'), 'before the failover');
    await eventually(() => expect(createdMessageIDs()).toEqual(stored));

    // The master that serves the tenant's keys (its stream among them) dies.
    const { master, replica } = await eventually(() => cluster.servingNodes(`{t:${context.tenantID}}`));
    cluster.kill(master);

    // A message posted while the slot has no master: stored and acknowledged, or refused in the envelope
    // and not stored, and then stored when the channel posts it again, as a channel does with a refusal.
    const during = await postInbound('wamid.failover.3', 'Alguém aí?');
    if (during.response.status >= 400) {
      expect(during.response.status).not.toBe(500);
      expect(during.error).toMatchObject({ errors: [expect.objectContaining({ statusCode: during.response.status, error_code: expect.any(Number) })] });
      expect(await storedChannelMessageIDs(context, session.sessionID)).not.toContain('wamid.failover.3');
    }

    await eventually(async () => expect(await cluster.promotedAndOk(replica, [master])).toBe(true));

    if (during.response.status >= 400) accepted(await postInbound('wamid.failover.3', 'Alguém aí?'), 'posted again after the failover');
    else accepted(during, 'during the failover');
    accepted(await postInbound('wamid.failover.4', 'Obrigado'), 'after the failover');
    accepted(await postInbound('wamid.failover.5', 'Até logo'), 'after the failover');

    // Delivery goes on: the last message reaches the operator.
    await eventually(() => expect(createdMessageIDs()).toContain(stored.at(-1)));
    const told = received().some((frame) => frame.type === 'resync-required');
    const order = createdMessageIDs().filter((messageID) => stored.includes(messageID));
    // In order, whatever arrived.
    expect(order).toEqual(stored.filter((messageID) => order.includes(messageID)));
    // Nothing missing unless the operator was told to fetch the state again.
    if (!told) expect(order).toEqual(stored);
    // What a resync fetches: every acknowledged message is stored, each once.
    expect(await storedMessageIDs(context, session.sessionID)).toEqual([...stored].sort());
  });
});

async function storedRows(context: ConversationPlatform, sessionID: string): Promise<{ id: string; channel_message_id: string | null }[]> {
  return context.platform.dataSource.query('SELECT id, channel_message_id FROM messages WHERE tenant_id = $1 AND session_id = $2 ORDER BY id', [context.tenantID, sessionID]);
}

async function storedMessageIDs(context: ConversationPlatform, sessionID: string): Promise<string[]> {
  return (await storedRows(context, sessionID)).map((row) => row.id).sort();
}

async function storedChannelMessageIDs(context: ConversationPlatform, sessionID: string): Promise<(string | null)[]> {
  return (await storedRows(context, sessionID)).map((row) => row.channel_message_id);
}
