import { randomUUID } from 'node:crypto';
import { withTableMissing } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEvents, GatewayReplica, startGateway, TestSocket } from '../realtime/realtime-client';
import { eventually } from '../support/eventually';
import { startPlatform, TestPlatform } from '../support/platform';
import { HarnessRedis } from './harness/harness-redis';

/**
 * The real-time gateway when what it stands on fails (docs/realtime.md): a
 * Redis of its own that restarts empty, losing every stream, and the outbox
 * unreadable for a while. Two gateway replicas in this process; nothing is
 * restarted but the failed dependency.
 */
describe('real-time gateway faults', () => {
  let redis: HarnessRedis;
  let platform: TestPlatform;
  let replicas: GatewayReplica[];
  let tenantID: string;
  let plugin: { authorization: string };
  const connect = (replica: GatewayReplica) => TestSocket.connect(replica.url, { headers: { authorization: plugin.authorization }, query: { tenantID } });

  beforeAll(async () => {
    redis = await HarnessRedis.start();
    platform = await startPlatform({ apps: [], env: { REDIS_URL: redis.url } });
    const env = { REALTIME_RELAY_POLL_MS: '20', REALTIME_HEARTBEAT_SECONDS: '2' };
    replicas = [await startGateway(platform, env), await startGateway(platform, env)];
    tenantID = await platform.fixtures.tenant();
    const installed = await platform.fixtures.plugin();
    await platform.fixtures.connection(tenantID, installed.pluginID);
    plugin = installed;
  });
  afterAll(async () => {
    for (const replica of replicas ?? []) await replica.close();
    await platform?.close();
    await redis?.stop();
  });

  it('tells a socket to resync when Redis restarted empty, then delivers again; a resume of the lost stream is told the same', async () => {
    const socket = await connect(replicas[0]);
    await socket.start();
    const [before] = await appendEvents(platform, tenantID, [{ type: 'session.opened', sessionID: randomUUID() }]);
    await eventually(() => expect(socket.eventIDs()).toEqual([before]));
    const lost = socket.position();

    await redis.stop();
    // Committed while Redis is away: the relay cannot stream it, and keeps it.
    const [during] = await appendEvents(platform, tenantID, [{ type: 'session.opened', sessionID: randomUUID() }]);
    await redis.start();

    // The stream begins again under a new epoch: what came between cannot be known, so the socket is told to resync.
    await eventually(() => expect(socket.ofType('resync-required')).toHaveLength(1));
    const [after] = await appendEvents(platform, tenantID, [{ type: 'session.opened', sessionID: randomUUID() }]);
    await eventually(() => expect(socket.eventIDs()).toEqual([before, after]));
    expect(socket.eventIDs()).not.toContain(during);
    expect(socket.closed).toBeUndefined();

    const resumed = await connect(replicas[1]);
    expect((await resumed.start({ type: 'resume', ...lost })).type).toBe('resync-required');
    socket.close();
    resumed.close();
  });

  it('keeps its sockets while PostgreSQL refuses the relay, and streams again once it answers', async () => {
    const socket = await connect(replicas[1]);
    await socket.start();
    await withTableMissing(platform.dataSource, 'webhook_events', async () => {
      // Every relay claim fails meanwhile; the socket stays open and answers.
      socket.send({ type: 'ping' });
      await eventually(() => expect(socket.ofType('pong')).toHaveLength(1));
    });
    const [after] = await appendEvents(platform, tenantID, [{ type: 'session.closed', sessionID: randomUUID() }]);
    await eventually(() => expect(socket.eventIDs()).toEqual([after]));
    expect(socket.closed).toBeUndefined();
    socket.close();
  });
});
