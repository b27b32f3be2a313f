import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestRaw } from '@platform/testing';
import { eventually } from '../support/eventually';
import { startPlatform, TestPlatform } from '../support/platform';
import { appendEvents, GatewayReplica, Refusal, startGateway, TestSocket } from './realtime-client';

const ORIGIN = 'https://app.example.test';

/**
 * The real-time gateway end to end (docs/realtime.md): two replicas over one
 * database and one Redis, real sockets, events appended to the outbox as a
 * change's transaction appends them.
 */
describe('real-time gateway', () => {
  let platform: TestPlatform;
  let replicas: GatewayReplica[];
  let tenantID: string;
  let otherTenantID: string;
  let owner: { operatorID: string; authorization: string };
  let member: { operatorID: string; authorization: string };
  let connection: { pluginConnectionID: string; authorization: string; pluginID: string };
  let plugin: { pluginID: string; authorization: string };

  const env = { CORS_ALLOWED_ORIGINS: ORIGIN, REALTIME_RELAY_POLL_MS: '20', REALTIME_HEARTBEAT_SECONDS: '1' };

  beforeAll(async () => {
    platform = await startPlatform({ apps: ['core-tenants', 'services-api'], env: { CORS_ALLOWED_ORIGINS: ORIGIN } });
    replicas = [await startGateway(platform, env), await startGateway(platform, env)];
    tenantID = await platform.fixtures.tenant();
    otherTenantID = await platform.fixtures.tenant();
    const operator = async (role: 'owner' | 'member') => {
      const { operatorID } = await platform.fixtures.operator();
      await platform.fixtures.membership(tenantID, operatorID, role);
      return { operatorID, authorization: `Bearer ${await platform.tokenFor(operatorID)}` };
    };
    owner = await operator('owner');
    member = await operator('member');
    const channel = await platform.fixtures.plugin();
    connection = { ...(await platform.fixtures.connection(tenantID, channel.pluginID)), pluginID: channel.pluginID };
    plugin = channel;
  });

  afterAll(async () => {
    for (const replica of replicas ?? []) await replica.close();
    await platform?.close();
  });

  const ticketFor = async (authorization: string, forTenant = tenantID) => {
    const response = await fetch(`${platform.servicesUrl}/v1/tenants/${forTenant}/realtime-tickets`, { method: 'POST', headers: { authorization } });
    expect(response.status).toBe(201);
    return ((await response.json()) as { data: { ticket: string } }).data.ticket;
  };
  const operatorSocket = async (authorization: string, replica = replicas[0]) =>
    TestSocket.connect(replica.url, { query: { ticket: await ticketFor(authorization) }, headers: { origin: ORIGIN } });
  const refusalOf = async (opened: Promise<TestSocket | Refusal>) => {
    const answer = await opened;
    if (answer instanceof TestSocket) throw new Error('the socket was opened');
    return { status: answer.status, code: answer.body.errors[0].error_code };
  };

  describe('who connects', () => {
    it('refuses an upgrade without a credential, with an operator token, or with a ticket that is unknown or used', async () => {
      const url = replicas[0].url;
      expect(await refusalOf(TestSocket.open(url))).toEqual({ status: 401, code: 1003 });
      expect(await refusalOf(TestSocket.open(url, { headers: { authorization: owner.authorization } }))).toEqual({ status: 401, code: 1003 });
      expect(await refusalOf(TestSocket.open(url, { query: { ticket: 'x'.repeat(43) } }))).toEqual({ status: 401, code: 1003 });
      const ticket = await ticketFor(owner.authorization);
      (await TestSocket.connect(replicas[0].url, { query: { ticket } })).close();
      // Single use, on every replica.
      expect(await refusalOf(TestSocket.open(replicas[1].url, { query: { ticket } }))).toEqual({ status: 401, code: 1003 });
    });

    it('refuses a browser origin outside CORS_ALLOWED_ORIGINS, a plugin without a tenant or not installed there, and another path', async () => {
      const ticket = await ticketFor(owner.authorization);
      expect(await refusalOf(TestSocket.open(replicas[0].url, { query: { ticket }, headers: { origin: 'https://evil.example.test' } }))).toEqual({ status: 403, code: 1004 });
      expect(await refusalOf(TestSocket.open(replicas[0].url, { headers: { authorization: plugin.authorization } }))).toEqual({ status: 400, code: 1001 });
      expect(await refusalOf(TestSocket.open(replicas[0].url, { headers: { authorization: plugin.authorization }, query: { tenantID: otherTenantID } }))).toEqual({
        status: 403,
        code: 1004,
      });
      expect(await refusalOf(TestSocket.open(replicas[0].url, { headers: { authorization: connection.authorization }, query: { tenantID: otherTenantID } }))).toEqual({
        status: 403,
        code: 1004,
      });
      expect(await refusalOf(TestSocket.open(replicas[0].url.replace('/v1/realtime', '/v1/other'), { headers: { authorization: connection.authorization } }))).toEqual({
        status: 404,
        code: 1904,
      });
    });

    it('refuses a malformed handshake in the envelope, 400 1002 on the header at fault', async () => {
      const base = replicas[0].url.replace('ws://', 'http://').replace('/v1/realtime', '');
      const answer = await requestRaw(base, {
        method: 'GET',
        target: '/v1/realtime',
        headers: { authorization: connection.authorization, connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-key': 'short', 'sec-websocket-version': '13' },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0]).toMatchObject({ error_code: 1002, fields: [{ field: 'sec-websocket-key' }] });
    });

    it('answers a ticket request for a tenant the operator is not a member of with 403 1004', async () => {
      const response = await fetch(`${platform.servicesUrl}/v1/tenants/${otherTenantID}/realtime-tickets`, { method: 'POST', headers: { authorization: owner.authorization } });
      expect(response.status).toBe(403);
    });
  });

  describe('what each receives', () => {
    it('delivers to an operator what operation 11 lets them see, and to a connection its inboxes, in commit order, on either replica', async () => {
      const operator = await operatorSocket(member.authorization, replicas[0]);
      const channel = await TestSocket.connect(replicas[1].url, { headers: { authorization: connection.authorization } });
      const tenantPlugin = await TestSocket.connect(replicas[1].url, { headers: { authorization: plugin.authorization }, query: { tenantID } });
      for (const socket of [operator, channel, tenantPlugin]) expect((await socket.start()).type).toBe('subscribed');
      const sessionID = randomUUID();
      const [listed, assignedToMember, assignedToOwner, ofConnection, memberTakesPart, readByMember, readByOwner] = await appendEvents(platform, tenantID, [
        { type: 'session.opened', sessionID, listed: true },
        { type: 'session.assigned', sessionID, operatorID: member.operatorID },
        { type: 'session.assigned', sessionID: randomUUID(), operatorID: owner.operatorID },
        { type: 'message.created', sessionID: randomUUID(), pluginConnectionID: connection.pluginConnectionID, operatorID: owner.operatorID },
        { type: 'session.participantJoined', sessionID: randomUUID(), operatorID: owner.operatorID, participantIDs: [owner.operatorID, member.operatorID] },
        { type: 'notifications.read', sessionID, operatorID: member.operatorID },
        { type: 'notifications.read', sessionID, operatorID: owner.operatorID },
      ]);
      // Another tenant's events reach none of them.
      await appendEvents(platform, otherTenantID, [{ type: 'session.opened', sessionID: randomUUID(), listed: true }]);
      await eventually(() => expect(operator.eventIDsBesidesPresence()).toEqual([listed, assignedToMember, memberTakesPart, readByMember]));
      // Besides, the presence of its own tenant's operators only (the member's own socket made them online).
      expect(operator.presenceOperatorIDs().every((operatorID) => [member.operatorID, owner.operatorID].includes(operatorID))).toBe(true);
      await eventually(() => expect(channel.eventIDs()).toEqual([ofConnection]));
      await eventually(() => expect(tenantPlugin.eventIDs()).toEqual([listed, assignedToMember, assignedToOwner, ofConnection, memberTakesPart]));
      const [first] = operator.ofType('event').filter((frame) => (frame.event as { type: string }).type !== 'operator.presenceChanged');
      expect(first).toMatchObject({ event: { id: listed, type: 'session.opened', subject: `session:${sessionID}`, data: { sessionID, listed: true } } });
      void readByOwner;
      for (const socket of [operator, channel, tenantPlugin]) socket.close();
    });

    it('answers a hostile frame with an error frame and keeps the socket', async () => {
      const socket = await TestSocket.connect(replicas[0].url, { headers: { authorization: connection.authorization } });
      socket.send('not json');
      socket.send({ type: 'resume', epoch: 'e', offset: 'DROP TABLE' });
      socket.send({ type: 'unknown' });
      socket.send({ type: 'ping' });
      await eventually(() => expect(socket.ofType('pong')).toHaveLength(1));
      expect(socket.ofType('error').map((frame) => (frame.error as { error_code: number; fields: { field: string }[] }).fields[0].field)).toEqual(['frame', 'offset', 'type']);
      expect(socket.closed).toBeUndefined();
      socket.close();
    });
  });

  describe('nothing missed', () => {
    it('resumes on the other replica, after the one a client was on stopped, with every event it missed, in order', async () => {
      const doomed = await startGateway(platform, env);
      const socket = await TestSocket.connect(doomed.url, { headers: { authorization: plugin.authorization }, query: { tenantID } });
      await socket.start();
      const sessionID = randomUUID();
      const [before] = await appendEvents(platform, tenantID, [{ type: 'session.opened', sessionID }]);
      await eventually(() => expect(socket.eventIDs()).toEqual([before]));
      const stopping = doomed.close();
      await eventually(() => expect(socket.ofType('reconnect')).toHaveLength(1));
      expect((await socket.closedWith()).code).toBe(1012);
      await stopping;
      const missed = await appendEvents(platform, tenantID, [
        { type: 'message.created', sessionID },
        { type: 'message.statusChanged', sessionID },
        { type: 'session.closed', sessionID },
      ]);
      const resumed = await TestSocket.connect(replicas[1].url, { headers: { authorization: plugin.authorization }, query: { tenantID } });
      expect((await resumed.start({ type: 'resume', ...socket.position() })).type).toBe('subscribed');
      await eventually(() => expect(resumed.eventIDs()).toEqual(missed));
      const [later] = await appendEvents(platform, tenantID, [{ type: 'session.opened', sessionID: randomUUID() }]);
      await eventually(() => expect(resumed.eventIDs()).toEqual([...missed, later]));
      resumed.close();
    });

    it('answers a resume outside the window, or of another epoch, with resync-required, then delivers from there', async () => {
      const socket = await TestSocket.connect(replicas[0].url, { headers: { authorization: plugin.authorization }, query: { tenantID } });
      const answer = await socket.start({ type: 'resume', epoch: 'an-epoch-long-gone', offset: '1-0' });
      expect(answer).toMatchObject({ type: 'resync-required', epoch: expect.any(String), offset: expect.any(String) });
      const [after] = await appendEvents(platform, tenantID, [{ type: 'session.opened', sessionID: randomUUID() }]);
      await eventually(() => expect(socket.eventIDs()).toEqual([after]));
      const again = await TestSocket.connect(replicas[1].url, { headers: { authorization: plugin.authorization }, query: { tenantID } });
      // The right epoch, but an offset trimmed from the stream.
      expect((await again.start({ type: 'resume', epoch: answer.epoch, offset: '1-0' })).type).toBe('resync-required');
      socket.close();
      again.close();
    });
  });

  describe('revocation', () => {
    it('closes a removed member\'s sockets on every replica', async () => {
      const { operatorID } = await platform.fixtures.operator();
      await platform.fixtures.membership(tenantID, operatorID, 'member');
      const authorization = `Bearer ${await platform.tokenFor(operatorID)}`;
      const sockets = [await operatorSocket(authorization, replicas[0]), await operatorSocket(authorization, replicas[1])];
      const removed = await fetch(`${platform.servicesUrl}/v1/tenants/${tenantID}/operators/${operatorID}`, { method: 'DELETE', headers: { authorization: owner.authorization } });
      expect(removed.status).toBe(200);
      for (const socket of sockets) expect((await socket.closedWith()).code).toBe(4403);
    });

    it('closes an uninstalled connection\'s sockets on every replica', async () => {
      const channel = await platform.fixtures.plugin();
      const installed = await platform.fixtures.connection(tenantID, channel.pluginID);
      const sockets = [
        await TestSocket.connect(replicas[0].url, { headers: { authorization: installed.authorization } }),
        await TestSocket.connect(replicas[1].url, { headers: { authorization: channel.authorization }, query: { tenantID } }),
      ];
      const deleted = await fetch(`${platform.servicesUrl}/v1/tenants/${tenantID}/plugins/connections/${installed.pluginConnectionID}`, {
        method: 'DELETE',
        headers: { authorization: owner.authorization },
      });
      expect(deleted.status).toBeLessThan(300);
      for (const socket of sockets) expect((await socket.closedWith()).code).toBe(4403);
    });
  });

  describe('under pressure', () => {
    it('closes a client that reads slower than events arrive with 4413, and it resumes where it stopped', async () => {
      const small = await startGateway(platform, { ...env, REALTIME_SOCKET_BUFFER_BYTES: '1024', REALTIME_HEARTBEAT_SECONDS: '60' });
      try {
        const socket = await TestSocket.connect(small.url, { headers: { authorization: plugin.authorization }, query: { tenantID } });
        await socket.start();
        const position = socket.position();
        const network = (socket.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
        network.pause();
        const sessionID = randomUUID();
        const padding = 'x'.repeat(32 * 1024);
        const ids: string[] = [];
        // More than the kernel's socket buffers hold, so the gateway's own buffer grows past its limit.
        for (let batch = 0; batch < 10; batch += 1) {
          ids.push(...(await appendEvents(platform, tenantID, Array.from({ length: 50 }, () => ({ type: 'message.created', sessionID, extra: { padding } })))));
        }
        network.resume();
        expect((await socket.closedWith()).code).toBe(4413);
        const resumed = await TestSocket.connect(replicas[0].url, { headers: { authorization: plugin.authorization }, query: { tenantID } });
        const start = socket.eventIDs().length > 0 ? socket.position() : position;
        await resumed.start({ type: 'resume', ...start });
        await eventually(() => expect([...socket.eventIDs(), ...resumed.eventIDs()]).toEqual(ids));
        resumed.close();
      } finally {
        await small.close();
      }
    });
  });
});
