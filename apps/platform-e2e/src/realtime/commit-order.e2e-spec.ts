import { randomUUID } from 'node:crypto';
import { createServicesApiApp, ServicesApiConfig } from '@apps/services-api';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServicesApiClient, ServicesApiClient } from '@platform/api-client';
import { loadConfig } from '@platform/config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationPlatform, createInbox, startConversationPlatform } from '../conversations/conversation-platform';
import { eventually } from '../support/eventually';
import { verified } from '../webhooks/webhook-receiver';
import { GatewayReplica, startGateway, TestSocket } from './realtime-client';

const CONTACTS = 6;
const ENDPOINTS = 4;
const MESSAGES_EACH = 50;
const WAIT_MS = 120_000;

/**
 * Both consumers of the outbox busy at once (docs/realtime.md, Order): four
 * contacts each post 50 messages at once, spread over two services-api
 * replicas whose webhook dispatchers both run, while two gateway replicas
 * relay and stream them to sockets. Every socket, and the webhook receiver,
 * must see each session's messages in the order they committed, which
 * PostgreSQL tells: a session's changes take its row's lock before writing,
 * so its messages' `created_at` (the clock at the insert) is commit order.
 */
describe('commit order on every consumer of the outbox', () => {
  let context: ConversationPlatform;
  let secondServices: NestFastifyApplication;
  let clients: ServicesApiClient[];
  let gateways: GatewayReplica[];
  let inboxID: string;

  beforeAll(async () => {
    // The relay polls often and both consumers move small batches, so each claims while the other holds a batch.
    const env = { WEBHOOK_MAX_PENDING_PER_ENDPOINT: '10000', WEBHOOK_DELIVERY_CONCURRENCY: '4', WEBHOOK_DISPATCH_POLL_MS: '50' };
    context = await startConversationPlatform(env);
    secondServices = await createServicesApiApp(loadConfig(ServicesApiConfig, context.platform.env));
    await secondServices.listen(0, '127.0.0.1');
    clients = [context.platform.api.services, createServicesApiClient((await secondServices.getUrl()).replace('[::1]', '127.0.0.1'))];
    gateways = [await startGateway(context.platform, { REALTIME_RELAY_POLL_MS: '20' }), await startGateway(context.platform, { REALTIME_RELAY_POLL_MS: '20' })];
    inboxID = await createInbox(context, 'WhatsApp Pedidos');
  });

  afterAll(async () => {
    for (const gateway of gateways ?? []) await gateway.close();
    await secondServices?.close();
    await context?.close();
  });

  /** Each session's message ids, in the order they committed. */
  const committedOrder = async (): Promise<Map<string, string[]>> => {
    const found = (await context.platform.dataSource.query(`SELECT session_id AS "sessionID", id FROM messages WHERE tenant_id = $1 ORDER BY created_at, id`, [
      context.tenantID,
    ])) as { sessionID: string; id: string }[];
    return grouped(found.map((row) => [row.sessionID, row.id]));
  };

  it('streams to every socket, and delivers to the webhook receiver, each session’s messages in commit order', async () => {
    // Several endpoints, so that each fan-out holds its batch a while.
    const hooks = await Promise.all(
      Array.from({ length: ENDPOINTS }, async (_, index) => ({
        path: `order-${index}`,
        ...(await context.webhooks.endpoint(context.tenantID, { url: context.receiver.url(`order-${index}`), eventTypes: ['message.created', 'session.opened'] })),
      })),
    );
    const sockets: TestSocket[] = [];
    for (const gateway of gateways) {
      for (let each = 0; each < 2; each += 1) {
        const socket = await TestSocket.connect(gateway.url, { headers: { authorization: context.channel.authorization } });
        expect((await socket.start()).type).toBe('subscribed');
        sockets.push(socket);
      }
    }

    const contacts = Array.from({ length: CONTACTS }, (_, index) => `+55119${String(index + 1).padStart(8, '0')}`);
    const posted = await Promise.all(
      contacts.flatMap((contactHandle, contact) =>
        Array.from({ length: MESSAGES_EACH }, async (_, index) => {
          const channelMessageID = `wamid.${randomUUID()}`;
          // 300 posts at once exhaust the pools' connections on a busy machine: a 503 is posted again, as a channel does (same channelMessageID).
          for (let attempt = 0; ; attempt += 1) {
            const answer = await clients[(contact + index + attempt) % clients.length].POST('/v1/tenants/{tenantID}/inboxes/{inboxID}/messages', {
              params: { path: { tenantID: context.tenantID, inboxID } },
              headers: { authorization: context.channel.authorization },
              body: { contactHandle, channelMessageID, content: `#${index}` },
            });
            if (answer.response.status !== 503 || attempt === 5) return answer.response.status < 300 ? 'stored' : `${answer.response.status} ${JSON.stringify(answer.error)}`;
          }
        }),
      ),
    );
    expect(posted.filter((outcome) => outcome !== 'stored')).toEqual([]);
    const committed = await committedOrder();
    expect([...committed.values()].flat()).toHaveLength(CONTACTS * MESSAGES_EACH);

    for (const socket of sockets) {
      const streamed = await eventually(() => {
        const created = socket
          .ofType('event')
          .map((frame) => frame.event as { type: string; subject: string; data: { message: { messageID: string } } })
          .filter((event) => event.type === 'message.created');
        expect(created).toHaveLength(CONTACTS * MESSAGES_EACH);
        return created;
      }, WAIT_MS);
      expect(grouped(streamed.map((event) => [event.subject.replace('session:', ''), event.data.message.messageID]))).toEqual(committed);
    }

    for (const hook of hooks) {
      const delivered = await eventually(() => {
        // A delivery attempted again (an answer lost on a busy machine) counts once, where it first arrived.
        const seen = new Set<string>();
        const firstAttempts = context.receiver.to(hook.path).filter((delivery) => !seen.has(delivery.headers['webhook-id']) && seen.add(delivery.headers['webhook-id']));
        const received = firstAttempts
          .map((delivery) => verified(hook.secret, delivery) as unknown as { type: string; data: { sessionID: string; message: { messageID: string } } })
          .filter((payload) => payload.type === 'message.created');
        expect(received).toHaveLength(CONTACTS * MESSAGES_EACH);
        return received;
      }, WAIT_MS);
      expect(grouped(delivered.map(({ data }) => [data.sessionID, data.message.messageID]))).toEqual(committed);
    }
    for (const socket of sockets) socket.close();
  }, 300_000);
});

/** Values grouped by key, each group in the given order. */
function grouped(pairs: [string, string][]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const [key, value] of pairs) groups.set(key, [...(groups.get(key) ?? []), value]);
  return groups;
}
