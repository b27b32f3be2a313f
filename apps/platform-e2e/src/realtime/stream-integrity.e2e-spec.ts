import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestRedis, requestRaw, TestRedis } from '@platform/testing';
import { transportNamespaceOf } from '@platform/transport';
import { eventually } from '../support/eventually';
import { startPlatform, TestPlatform } from '../support/platform';
import { appendEvents, Frame, GatewayReplica, startGateway, TestSocket } from './realtime-client';

/** The shortest window the gateway takes (REALTIME_RETENTION_SECONDS), so a test sees it pass in seconds. */
const RETENTION_SECONDS = 10;

/**
 * What a resume is promised (docs/realtime.md, Resume): every event missed,
 * in place and once, or `resync-required`; never `subscribed` followed by a
 * gap, never an error, never an event a second time because an entry was
 * copied within its stream; and an epoch that stays while Redis keeps its
 * data. Two replicas with a 10-second window.
 */
describe('real-time streams: resume and seals', () => {
  let platform: TestPlatform;
  let replicas: GatewayReplica[];
  let redis: TestRedis;

  const env = { REALTIME_RELAY_POLL_MS: '20', REALTIME_RETENTION_SECONDS: String(RETENTION_SECONDS) };

  beforeAll(async () => {
    platform = await startPlatform({ apps: ['core-tenants', 'services-api'] });
    replicas = [await startGateway(platform, env), await startGateway(platform, env)];
    redis = createTestRedis({ maxRetriesPerRequest: 1 });
  });

  afterAll(async () => {
    redis?.disconnect();
    for (const replica of replicas ?? []) await replica.close();
    await platform?.close();
  });

  /** A tenant of its own with a plugin installed on it, and a way to open the plugin's sockets on either replica. */
  const pluginTenant = async () => {
    const tenantID = await platform.fixtures.tenant();
    const plugin = await platform.fixtures.plugin();
    await platform.fixtures.connection(tenantID, plugin.pluginID);
    const open = (replica = replicas[0]) => TestSocket.connect(replica.url, { headers: { authorization: plugin.authorization }, query: { tenantID } });
    const append = async () => (await appendEvents(platform, tenantID, [{ type: 'session.opened', sessionID: randomUUID() }]))[0];
    return { tenantID, open, append };
  };

  /** The event frame of the event `eventID` a socket received. */
  const frameOf = (socket: TestSocket, eventID: string): Frame & { epoch: string; offset: string } => {
    const frame = socket.ofType('event').find((received) => (received.event as { id: string }).id === eventID);
    if (!frame) throw new Error(`no event ${eventID}`);
    return frame as Frame & { epoch: string; offset: string };
  };

  /** The tenant's stream key, as the gateway names it (realtime:v1:<namespace>:stream:<tenantID>), once the stream exists. */
  const streamKeyOf = async (tenantID: string) => {
    const key = `realtime:v1:${transportNamespaceOf({ DATABASE_URL: platform.env.DATABASE_URL!, TRANSPORT_NAMESPACE: platform.env.TRANSPORT_NAMESPACE })}:stream:${tenantID}`;
    await eventually(async () => expect(await redis.exists(key)).toBe(1));
    return key;
  };

  describe('a quiet tenant past the window', () => {
    it('answers a resume whose missed events left the window with resync-required, not subscribed and a gap', async () => {
      const { open, append } = await pluginTenant();
      const watcher = await open(replicas[1]);
      await watcher.start();
      const client = await open();
      await client.start();
      const e1 = await append();
      await eventually(() => expect(client.eventIDs()).toEqual([e1]));
      const position = client.position();
      client.close();
      const e2 = await append();
      await eventually(() => expect(watcher.eventIDs()).toEqual([e1, e2]));
      // The tenant stays quiet: nothing is appended, so nothing trims e1 from the stream. Wait until e2 is older than the window.
      const e2AppendedAtMs = Number(frameOf(watcher, e2).offset.split('-')[0]);
      await eventually(() => expect(Date.now()).toBeGreaterThan(e2AppendedAtMs + RETENTION_SECONDS * 1000 + 500), 60_000, 250);

      const resumed = await open(replicas[1]);
      expect(await resumed.start({ type: 'resume', ...position })).toMatchObject({ type: 'resync-required', epoch: position.epoch });
      const e3 = await append();
      // e3 is the barrier: e2 never came before it.
      await eventually(() => expect(resumed.eventIDs()).toEqual([e3]));
      expect(resumed.ofType('subscribed')).toEqual([]);
      for (const socket of [watcher, resumed]) socket.close();
    });

    it('resumes a client whose last event is older than the window when nothing came after it', async () => {
      const { open, append } = await pluginTenant();
      const client = await open();
      await client.start();
      const e1 = await append();
      await eventually(() => expect(client.eventIDs()).toEqual([e1]));
      const position = client.position();
      client.close();
      await eventually(() => expect(Date.now()).toBeGreaterThan(Number(position.offset.split('-')[0]) + RETENTION_SECONDS * 1000 + 500), 60_000, 250);

      const resumed = await open(replicas[1]);
      expect(await resumed.start({ type: 'resume', ...position })).toMatchObject({ type: 'subscribed', ...position });
      const e2 = await append();
      await eventually(() => expect(resumed.eventIDs()).toEqual([e2]));
      resumed.close();
    });
  });

  describe('offsets Redis cannot read after', () => {
    it('answers a resume with an offset past the largest stream id with resync-required, not an error', async () => {
      const { open } = await pluginTenant();
      const probe = await open();
      const { epoch } = (await probe.start()) as Frame & { epoch: string };
      probe.close();
      for (const offset of ['99999999999999999999-0', '18446744073709551616-0', '0-18446744073709551616', '18446744073709551615-18446744073709551615']) {
        const socket = await open();
        expect([offset, await socket.start({ type: 'resume', epoch, offset })]).toEqual([offset, expect.objectContaining({ type: 'resync-required', epoch })]);
        expect(socket.ofType('error')).toEqual([]);
        socket.close();
      }
    });
  });

  describe('an entry copied within its stream', () => {
    it('is delivered neither again to a subscribed socket nor by a resume', async () => {
      const { tenantID, open, append } = await pluginTenant();
      const live = await open();
      await live.start();
      const e1 = await append();
      const e2 = await append();
      await eventually(() => expect(live.eventIDs()).toEqual([e1, e2]));
      const afterE1 = { epoch: frameOf(live, e1).epoch, offset: frameOf(live, e1).offset };

      // Whoever can write Redis appends a copy of e1's sealed entry at the stream's end.
      const key = await streamKeyOf(tenantID);
      const [[, fields]] = await redis.xrange(key, afterE1.offset, afterE1.offset);
      await redis.xadd(key, '*', ...fields);
      const e3 = await append();

      // e3 comes after the copy in the stream: once it arrived, the copy was read.
      await eventually(() => expect(live.eventIDs()).toEqual([e1, e2, e3]));
      const resumed = await open(replicas[1]);
      expect((await resumed.start({ type: 'resume', ...afterE1 })).type).toBe('subscribed');
      await eventually(() => expect(resumed.eventIDs()).toEqual([e2, e3]));
      for (const socket of [live, resumed]) socket.close();
    });
  });

  describe('the epoch', () => {
    it('stays while Redis keeps its data: a tenant quiet until its stream expired goes on in the same epoch', async () => {
      const { tenantID, open, append } = await pluginTenant();
      const live = await open();
      const { epoch } = (await live.start()) as Frame & { epoch: string };
      const e1 = await append();
      await eventually(() => expect(live.eventIDs()).toEqual([e1]));
      const position = live.position();

      // A stream lives twice the window after its last append.
      const key = await streamKeyOf(tenantID);
      await eventually(async () => expect(await redis.exists(key)).toBe(0), 60_000, 250);
      const e2 = await append();
      await eventually(() => expect(live.eventIDs()).toEqual([e1, e2]));
      expect(live.ofType('resync-required')).toEqual([]);
      expect(frameOf(live, e2).epoch).toBe(epoch);

      // The offset left with the old stream: a resume resyncs, in the same epoch.
      const resumed = await open(replicas[1]);
      expect(await resumed.start({ type: 'resume', ...position })).toMatchObject({ type: 'resync-required', epoch });
      for (const socket of [live, resumed]) socket.close();
    }, 90_000);
  });

  describe('socket limits', () => {
    it('answers an upgrade past the principal\'s socket limit with 429 1071 and Retry-After', async () => {
      const limited = await startGateway(platform, { ...env, REALTIME_MAX_SOCKETS_PER_PRINCIPAL: '1' });
      try {
        const tenantID = await platform.fixtures.tenant();
        const plugin = await platform.fixtures.plugin();
        await platform.fixtures.connection(tenantID, plugin.pluginID);
        const held = await TestSocket.connect(limited.url, { headers: { authorization: plugin.authorization }, query: { tenantID } });
        const base = limited.url.replace('ws://', 'http://').replace('/v1/realtime', '');
        const answer = await requestRaw(base, {
          method: 'GET',
          target: `/v1/realtime?tenantID=${tenantID}`,
          headers: {
            authorization: plugin.authorization,
            connection: 'Upgrade',
            upgrade: 'websocket',
            'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
            'sec-websocket-version': '13',
          },
        });
        expect(answer.status).toBe(429);
        expect(answer.body.errors[0]).toMatchObject({ error_code: 1071 });
        expect(answer.headers['retry-after']).toBe('1');
        held.close();
      } finally {
        await limited.close();
      }
    });
  });
});
