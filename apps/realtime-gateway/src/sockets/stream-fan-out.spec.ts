import { randomUUID } from 'node:crypto';
import { CacheSeal } from '@platform/auth';
import { fake } from '@platform/testing-doubles';
import { TEST_REDIS_URL } from '@platform/test-support';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type WebSocket from 'ws';
import { isLapsed, StreamedEvent } from '../streams/streamed-event';
import { TenantStreams } from '../streams/tenant-streams';
import { CLOSE_CODES } from './frames';
import { StreamFanOut } from './stream-fan-out';
import { Subscriber } from './subscriber';
import type { Audience } from './visibility';

const BUFFER_LIMIT = 1 << 20;
const WAIT = { timeout: 50_000, interval: 20 };
const OPERATOR_ID = '11111111-1111-4111-8111-111111111111';
const OTHER_OPERATOR_ID = '22222222-2222-4222-8222-222222222222';

/** A session event with its visibility snapshot: listed, or assigned to `operatorID` alone. */
const sessionEvent = (name: string, visibility: { listed: boolean; operatorID?: string }): StreamedEvent => ({
  id: name,
  type: 'session.assigned',
  occurredAt: '2026-01-01T00:00:00.000000Z',
  subject: null,
  data: { listed: visibility.listed, operatorID: visibility.operatorID ?? null, participantIDs: [] },
});
const listed = (name: string) => sessionEvent(name, { listed: true });

/** The fan-out over real Redis streams, handing entries to real subscribers on socket doubles that record the event ids they were sent. */
describe('StreamFanOut', () => {
  let redis: Redis;
  let streams: TenantStreams;
  let fanOut: StreamFanOut;
  const namespace = `stream-fan-out-spec-${process.pid}`;

  beforeAll(() => {
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    streams = new TenantStreams(redis, new CacheSeal({ current: 'a-cache-secret-of-the-stream-fan-out-spec' }), { namespace, retentionMs: 600_000, maxEvents: 1_000 });
    fanOut = new StreamFanOut(redis, streams);
    fanOut.onModuleInit();
  });
  afterAll(async () => {
    await fanOut.onApplicationShutdown();
    const keys = await redis.keys(`realtime:v1:${namespace}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  /**
   * A live socket of `tenantID` joined to the fan-out, as a subscribe leaves
   * it: the event ids it was sent, its closes, and the event ids the fan-out
   * handed it (which the socket would skip if at or before its offset).
   */
  const liveSocket = async (tenantID: string, audience: Audience) => {
    const received: string[] = [];
    const handed: string[] = [];
    const closes: number[] = [];
    const socket = {
      bufferedAmount: 0,
      send: (data: unknown) => {
        const frame = JSON.parse(String(data)) as { type: string; event?: StreamedEvent };
        received.push(frame.type === 'event' ? (frame.event?.id ?? '') : frame.type);
      },
      close: (code: number) => void closes.push(code),
    };
    const principal = audience.kind === 'operator' ? { kind: 'operator' as const, operatorID: audience.operatorID } : { kind: 'plugin' as const, pluginID: 'p' };
    const subscriber = new Subscriber(randomUUID(), fake<WebSocket>(socket as unknown as Partial<WebSocket>), { tenantID, principal, audience, standingSubject: 's', limitKey: 's' }, BUFFER_LIMIT);
    const receiveLive = subscriber.receiveLive.bind(subscriber);
    subscriber.receiveLive = (entries) => {
      handed.push(...entries.map((entry) => (isLapsed(entry) ? `lapsed ${entry.offset}` : entry.event.id)));
      receiveLive(entries);
    };
    subscriber.state = 'catching-up';
    await fanOut.join(subscriber);
    subscriber.epoch = await streams.epochOf(tenantID);
    subscriber.offset = await streams.lastOffset(tenantID);
    subscriber.goLive();
    return { subscriber, socket, received, handed, closes };
  };

  it("hands every socket of a tenant its stream's entries in order, each only those its audience may see, and no other tenant's", async () => {
    const tenantID = randomUUID();
    const otherTenantID = randomUUID();
    const plugin = await liveSocket(tenantID, { kind: 'plugin', pluginID: 'p' });
    const operator = await liveSocket(tenantID, { kind: 'operator', operatorID: OPERATOR_ID });
    const otherOperator = await liveSocket(tenantID, { kind: 'operator', operatorID: OTHER_OPERATOR_ID });
    const otherTenant = await liveSocket(otherTenantID, { kind: 'plugin', pluginID: 'p' });

    await streams.append(tenantID, [listed('a1'), sessionEvent('a2', { listed: false, operatorID: OPERATOR_ID })]);
    await streams.append(otherTenantID, [listed('b1')]);
    await streams.append(tenantID, [sessionEvent('a3', { listed: false, operatorID: OTHER_OPERATOR_ID }), listed('a4')]);

    await vi.waitFor(() => expect(plugin.received).toEqual(['a1', 'a2', 'a3', 'a4']), WAIT);
    // One read hands a tenant's entries to all its sockets: the others have theirs by now.
    expect(operator.received).toEqual(['a1', 'a2', 'a4']);
    expect(otherOperator.received).toEqual(['a1', 'a3', 'a4']);
    await vi.waitFor(() => expect(otherTenant.received).toEqual(['b1']), WAIT);
  });

  it('reads a tenant from the tail its stream had when its first socket joined: what came before is the catch-up\'s', async () => {
    const tenantID = randomUUID();
    await streams.append(tenantID, [listed('before')]);
    const socket = await liveSocket(tenantID, { kind: 'plugin', pluginID: 'p' });
    await streams.append(tenantID, [listed('after')]);
    await vi.waitFor(() => expect(socket.received).toEqual(['after']), WAIT);
    expect(socket.handed).toEqual(['after']);
  });

  it('hands a socket catching up the live entries to hold back, and they go out once it is live', async () => {
    const tenantID = randomUUID();
    const barrier = await liveSocket(tenantID, { kind: 'plugin', pluginID: 'p' });
    const catchingUp = await liveSocket(tenantID, { kind: 'plugin', pluginID: 'p' });
    catchingUp.subscriber.state = 'catching-up';
    await streams.append(tenantID, [listed('held')]);
    await vi.waitFor(() => expect(barrier.received).toEqual(['held']), WAIT);
    expect(catchingUp.received).toEqual([]);
    catchingUp.subscriber.goLive();
    expect(catchingUp.received).toEqual(['held']);
  });

  it("closes a slow consumer with 4413 and goes on delivering to the tenant's other sockets", async () => {
    const tenantID = randomUUID();
    const slow = await liveSocket(tenantID, { kind: 'plugin', pluginID: 'p' });
    const quick = await liveSocket(tenantID, { kind: 'plugin', pluginID: 'p' });
    slow.socket.bufferedAmount = BUFFER_LIMIT + 1;
    await streams.append(tenantID, [listed('e1')]);
    await vi.waitFor(() => expect(slow.closes).toEqual([CLOSE_CODES.slowConsumer]), WAIT);
    await streams.append(tenantID, [listed('e2')]);
    await streams.append(tenantID, [listed('e3')]);
    await vi.waitFor(() => expect(quick.received).toEqual(['e1', 'e2', 'e3']), WAIT);
    expect(slow.received).toEqual(['e1']);
  });

  it('hands nothing more to a socket that left, while the others of its tenant go on', async () => {
    const tenantID = randomUUID();
    const leaving = await liveSocket(tenantID, { kind: 'plugin', pluginID: 'p' });
    const staying = await liveSocket(tenantID, { kind: 'plugin', pluginID: 'p' });
    await streams.append(tenantID, [listed('e1')]);
    await vi.waitFor(() => expect(leaving.received).toEqual(['e1']), WAIT);
    fanOut.leave(leaving.subscriber);
    await streams.append(tenantID, [listed('e2')]);
    await vi.waitFor(() => expect(staying.received).toEqual(['e1', 'e2']), WAIT);
    expect(leaving.received).toEqual(['e1']);
  });

  it("reads a tenant whose last socket left from its tail again when a socket joins, not from where it stopped", async () => {
    const tenantID = randomUUID();
    const first = await liveSocket(tenantID, { kind: 'plugin', pluginID: 'p' });
    fanOut.leave(first.subscriber);
    await streams.append(tenantID, [listed('while-nobody-listened')]);
    const second = await liveSocket(tenantID, { kind: 'plugin', pluginID: 'p' });
    await streams.append(tenantID, [listed('later')]);
    await vi.waitFor(() => expect(second.received).toEqual(['later']), WAIT);
    expect(second.handed).toEqual(['later']);
    expect(first.handed).toEqual([]);
  });
});
