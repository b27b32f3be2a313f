import { randomUUID } from 'node:crypto';
import { createServer, Server, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationPlatform, createInbox, Operator, startConversationPlatform } from '../conversations/conversation-platform';
import { eventually } from '../support/eventually';
import { Frame, GatewayReplica, startGateway, TestSocket } from './realtime-client';

const ENV = { REALTIME_RELAY_POLL_MS: '20' };

/** What a message and a session look like in an answer, as far as these tests read them. */
interface Posted {
  message: { messageID: string; channelMessageID: string; messageValue: unknown };
  session: { sessionID: string };
}

/**
 * A plugin connection's requests over its socket (docs/realtime.md, Requests
 * over the socket): forwarded to services-api with the connection's own
 * credential and answered as REST answers them, idempotency and validation
 * included; refused to any other socket; services-api away or silent is an
 * error frame, and the socket stays open.
 */
describe('requests over the real-time socket', () => {
  let context: ConversationPlatform;
  let replica: GatewayReplica;
  let inboxID: string;
  const api = () => context.platform.api.services;

  beforeAll(async () => {
    context = await startConversationPlatform();
    replica = await startGateway(context.platform, ENV);
    inboxID = await createInbox(context, 'WhatsApp Suporte');
  });

  afterAll(async () => {
    await replica?.close();
    await context?.close();
  });

  const connectionSocket = async (target = replica) => {
    const socket = await TestSocket.connect(target.url, { headers: { authorization: context.channel.authorization } });
    expect((await socket.start()).type).toBe('subscribed');
    return socket;
  };
  /** The answer that names a requestID, once it arrived. */
  const answerTo = (socket: TestSocket, requestID: string) =>
    eventually(() => socket.frames.find((received) => received.requestID === requestID && ['result', 'error'].includes(received.type)) ?? fail('no answer yet'));
  /** Sends a request frame and waits for its answer. */
  const ask = async (socket: TestSocket, frame: Frame & { requestID: string }) => {
    socket.send(frame);
    return answerTo(socket, frame.requestID);
  };
  const postMessage = (message: Record<string, unknown>, options: { inbox?: string; requestID?: string } = {}) => ({
    type: 'post-message',
    requestID: options.requestID ?? randomUUID(),
    inboxID: options.inbox ?? inboxID,
    message,
  });
  const errorOf = (frame: Frame) => frame.error as { statusCode: number; error_code: number; fields?: { field: string }[] };
  const sessionCall = (operator: Operator, sessionID: string) => ({ params: { path: { tenantID: context.tenantID, sessionID } }, headers: { authorization: operator.authorization } });

  it("stores a contact's message posted over the socket once: 201, then 200 with the same message; REST shows it and the socket receives it as an event", async () => {
    const socket = await connectionSocket();
    const message = { contactHandle: `+55119${Date.now() % 100_000_000}`, contactName: 'Ana', channelMessageID: `wamid.${randomUUID()}`, content: 'Meu pedido chegou quebrado.' };

    const stored = await ask(socket, postMessage(message, { requestID: 'in-1' }));
    expect(stored).toMatchObject({ type: 'result', requestID: 'in-1', status: 201 });
    const { message: inbound, session } = stored.data as Posted;
    expect(inbound).toMatchObject({ channelMessageID: message.channelMessageID, messageDirection: 'inbound', messageValue: message.content });
    // The channel redelivers: the same channelMessageID answers the stored message and writes nothing.
    const repeated = await ask(socket, postMessage({ ...message, content: 'another text' }, { requestID: 'in-2' }));
    expect(repeated).toMatchObject({ type: 'result', requestID: 'in-2', status: 200 });
    expect((repeated.data as Posted).message).toEqual(inbound);

    const page = await api().GET('/v1/tenants/{tenantID}/sessions/{sessionID}/messages', {
      params: { path: { tenantID: context.tenantID, sessionID: session.sessionID }, query: {} },
      headers: { authorization: context.channel.authorization },
    });
    expect(page.data!.data).toEqual([inbound]);
    const events = () => socket.ofType('event').map((frame) => frame.event as { type: string; data: { sessionID: string; message?: unknown } });
    await eventually(() => expect(events().filter((event) => event.data.sessionID === session.sessionID).map((event) => event.type)).toEqual(['session.opened', 'message.created']));
    expect(events().find((event) => event.type === 'message.created' && event.data.sessionID === session.sessionID)?.data.message).toEqual(inbound);
    socket.close();
  });

  it("reports a reply's delivery over the socket, forward only, as REST does", async () => {
    const socket = await connectionSocket();
    const posted = await ask(socket, postMessage({ contactHandle: '+5511911110000', channelMessageID: `wamid.${randomUUID()}`, content: 'Oi' }));
    const { sessionID } = (posted.data as Posted).session;
    expect((await api().POST('/v1/tenants/{tenantID}/sessions/{sessionID}/take', sessionCall(context.member, sessionID))).response.status).toBe(200);
    const replied = await api().POST('/v1/tenants/{tenantID}/sessions/{sessionID}/messages', {
      ...sessionCall(context.member, sessionID),
      headers: { authorization: context.member.authorization, 'idempotency-key': randomUUID() },
      body: { content: 'Já verifico.' },
    });
    expect(replied.response.status).toBe(201);
    const { messageID } = replied.data!.data;

    const delivered = await ask(socket, { type: 'report-delivery-status', requestID: 'st-1', messageID, deliveryStatus: 'delivered' });
    expect(delivered).toMatchObject({ type: 'result', requestID: 'st-1', status: 200, data: { messageID, deliveryStatus: 'delivered' } });
    // Its event reaches the subscribed socket as for a REST call.
    const statusEvent = await eventually(
      () =>
        socket
          .ofType('event')
          .map((frame) => frame.event as { type: string; data: { message: unknown; previousStatus: string } })
          .find((event) => event.type === 'message.statusChanged') ?? fail('no status event yet'),
    );
    expect(statusEvent.data).toMatchObject({ message: delivered.data, previousStatus: 'pending' });

    const backwards = await ask(socket, { type: 'report-delivery-status', requestID: 'st-2', messageID, deliveryStatus: 'sent' });
    expect(backwards.type).toBe('error');
    expect(errorOf(backwards)).toMatchObject({ statusCode: 409, error_code: 1947 });
    socket.close();
  });

  it("answers services-api's refusals as error frames naming the request: 400 1002 with fields, 422 1948, another connection's inbox 404 1940", async () => {
    const socket = await connectionSocket();
    const invalid = await ask(socket, postMessage({ contactHandle: '+5511900000000', channelMessageID: 'wamid.x' }, { requestID: 'bad-1' }));
    expect(invalid).toMatchObject({ type: 'error', requestID: 'bad-1', error: { statusCode: 400, error_code: 1002 } });
    expect(errorOf(invalid).fields?.map((field) => field.field)).toContain('content');
    const unknownStatus = await ask(socket, { type: 'report-delivery-status', requestID: 'bad-2', messageID: randomUUID(), deliveryStatus: 'lost' });
    expect(unknownStatus).toMatchObject({ type: 'error', requestID: 'bad-2', error: { error_code: 1002, fields: [{ field: 'deliveryStatus' }] } });
    const tooLong = await ask(socket, postMessage({ contactHandle: '+5511900000000', channelMessageID: `wamid.${randomUUID()}`, content: 'x'.repeat(51) }));
    expect(errorOf(tooLong)).toMatchObject({ statusCode: 422, error_code: 1948 });
    // The frame's own shape is the gateway's to check: the inbox id becomes a path segment.
    const walking = await ask(socket, postMessage({ content: 'x' }, { inbox: '../../sessions', requestID: 'bad-3' }));
    expect(walking).toMatchObject({ type: 'error', requestID: 'bad-3', error: { error_code: 1002, fields: [{ field: 'inboxID' }] } });

    const otherConnection = await TestSocket.connect(replica.url, { headers: { authorization: context.otherChannel.authorization } });
    const foreign = await ask(otherConnection, postMessage({ contactHandle: '+5511900000000', channelMessageID: `wamid.${randomUUID()}`, content: 'Oi' }));
    expect(errorOf(foreign)).toMatchObject({ statusCode: 404, error_code: 1940 });
    for (const open of [socket, otherConnection]) {
      expect(open.closed).toBeUndefined();
      open.close();
    }
  });

  it("refuses requests on an operator's or a plugin's socket with 403 1004, and a frame without a proper requestID with 1002 on it", async () => {
    const ticketAnswer = await fetch(`${context.platform.servicesUrl}/v1/tenants/${context.tenantID}/realtime-tickets`, { method: 'POST', headers: { authorization: context.owner.authorization } });
    const { ticket } = ((await ticketAnswer.json()) as { data: { ticket: string } }).data;
    const operator = await TestSocket.connect(replica.url, { query: { ticket } });
    const plugin = await context.platform.fixtures.plugin();
    await context.platform.fixtures.connection(context.tenantID, plugin.pluginID);
    const pluginSocket = await TestSocket.connect(replica.url, { headers: { authorization: plugin.authorization }, query: { tenantID: context.tenantID } });
    const message = { contactHandle: '+5511900000000', channelMessageID: `wamid.${randomUUID()}`, content: 'Oi' };
    for (const socket of [operator, pluginSocket]) {
      expect(await ask(socket, postMessage(message, { requestID: 'op-1' }))).toMatchObject({ type: 'error', requestID: 'op-1', error: { statusCode: 403, error_code: 1004 } });
    }

    const connection = await connectionSocket();
    for (const requestID of [undefined, '', 'has space', 'x'.repeat(65), 42]) {
      const before = connection.frames.length;
      connection.send({ ...postMessage(message), requestID });
      const refused = await eventually(() => connection.frames.slice(before).find((frame) => frame.type === 'error') ?? fail('no answer yet'));
      expect(refused).toEqual({ type: 'error', error: expect.objectContaining({ error_code: 1002, fields: [expect.objectContaining({ field: 'requestID' })] }) });
    }
    // Nothing of it was posted, and the socket still answers.
    connection.send({ type: 'ping' });
    await eventually(() => expect(connection.ofType('pong')).toHaveLength(1));
    for (const socket of [operator, pluginSocket, connection]) socket.close();
  });

  describe('when services-api does not answer', () => {
    let silent: Server;
    let silentUrl: string;
    const held: Socket[] = [];
    const seen: string[] = [];
    let stopped: GatewayReplica[] = [];

    beforeAll(async () => {
      // Accepts, reads the request and never answers.
      silent = createServer((socket) => {
        held.push(socket);
        socket.on('data', (chunk) => seen.push(chunk.toString()));
      });
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      silentUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    });

    afterAll(async () => {
      for (const gateway of stopped) await gateway.close();
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });

    it('answers 429 1071 past REALTIME_MAX_REQUESTS_IN_FLIGHT, 503 5903 when services-api drops the request or nothing listens, 504 5904 past REALTIME_REQUEST_TIMEOUT_MS; the socket stays open', async () => {
      const closedPort = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, '127.0.0.1', () => {
          const { port } = probe.address() as { port: number };
          probe.close(() => resolve(port));
        });
      });
      const [busy, slow, away] = (stopped = [
        await startGateway(context.platform, { ...ENV, SERVICES_API_URL: silentUrl, REALTIME_REQUEST_TIMEOUT_MS: '60000', REALTIME_MAX_REQUESTS_IN_FLIGHT: '1' }),
        await startGateway(context.platform, { ...ENV, SERVICES_API_URL: silentUrl, REALTIME_REQUEST_TIMEOUT_MS: '300' }),
        await startGateway(context.platform, { ...ENV, SERVICES_API_URL: `http://127.0.0.1:${closedPort}` }),
      ]);
      const message = { contactHandle: '+5511900000000', channelMessageID: `wamid.${randomUUID()}`, content: 'Oi' };

      const waiting = await connectionSocket(busy);
      waiting.send(postMessage(message, { requestID: 'first' }));
      // The first is in flight (services-api received it, with the connection's own credential): a second is refused.
      await eventually(() => expect(seen.join('')).toContain(`authorization: ${context.channel.authorization}`));
      expect(await ask(waiting, postMessage(message, { requestID: 'second' }))).toMatchObject({ type: 'error', requestID: 'second', error: { statusCode: 429, error_code: 1071 } });
      // services-api drops the connection without an answer.
      for (const socket of held) socket.destroy();
      expect(await answerTo(waiting, 'first')).toMatchObject({ type: 'error', error: { statusCode: 503, error_code: 5903 } });

      const timedOut = await connectionSocket(slow);
      expect(await ask(timedOut, postMessage(message, { requestID: 'late' }))).toMatchObject({ type: 'error', requestID: 'late', error: { statusCode: 504, error_code: 5904 } });
      const stranded = await connectionSocket(away);
      expect(await ask(stranded, postMessage(message, { requestID: 'away' }))).toMatchObject({ type: 'error', requestID: 'away', error: { statusCode: 503, error_code: 5903 } });

      for (const open of [waiting, timedOut, stranded]) {
        open.send({ type: 'ping' });
        await eventually(() => expect(open.ofType('pong')).toHaveLength(1));
        expect(open.closed).toBeUndefined();
        open.close();
      }
    });
  });
});

function fail(message: string): never {
  throw new Error(message);
}
