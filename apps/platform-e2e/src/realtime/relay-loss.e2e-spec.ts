import { randomUUID } from 'node:crypto';
import { WebhookDeliveryRetention } from '@apps/services-api';
import { MetricsListener } from '@platform/observability';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { scrape } from '../support/metrics';
import { startPlatform, TestPlatform } from '../support/platform';
import { appendEvents, GatewayReplica, startGateway, TestSocket } from './realtime-client';

/**
 * The outbox's retention does not wait for a relay that is down (no gateway
 * running): it deletes events past the outbox's day all the same, counts
 * what the relay missed, and the relay, once back, makes the tenant's
 * clients resync rather than resume over a silent gap (docs/realtime.md,
 * Where events come from).
 */
describe('the real-time relay behind the outbox retention window', () => {
  let platform: TestPlatform;
  let gateway: GatewayReplica | undefined;
  let tenantID: string;
  let connection: { pluginConnectionID: string; authorization: string };

  beforeAll(async () => {
    platform = await startPlatform({ apps: ['services-api'] });
    tenantID = await platform.fixtures.tenant();
    const channel = await platform.fixtures.plugin();
    connection = await platform.fixtures.connection(tenantID, channel.pluginID);
  });

  afterAll(async () => {
    await gateway?.close();
    await platform?.close();
  });

  const messageOfConnection = () => ({ type: 'message.created', sessionID: randomUUID(), pluginConnectionID: connection.pluginConnectionID });
  const connect = () => TestSocket.connect(gateway!.url, { headers: { authorization: connection.authorization } });

  it('deletes the events the stopped relay never streamed, counts them, and has the tenant’s clients resync once it is back', async () => {
    gateway = await startGateway(platform, { REALTIME_RELAY_POLL_MS: '50' });
    const socket = await connect();
    expect((await socket.start()).type).toBe('subscribed');
    const [seen] = await appendEvents(platform, tenantID, [messageOfConnection()]);
    await eventually(() => expect(socket.eventIDs()).toEqual([seen]));
    const position = socket.position();
    socket.close();

    // Every gateway stopped: nothing streams what is appended now, and a day passes.
    await gateway.close();
    gateway = undefined;
    const missed = await appendEvents(platform, tenantID, [messageOfConnection(), messageOfConnection()]);
    await platform.dataSource.query(`UPDATE webhook_events SET occurred_at = occurred_at - interval '2 days' WHERE id = ANY($1::uuid[])`, [missed]);

    const services = platform.apps['services-api']!;
    const swept = await services.get(WebhookDeliveryRetention).sweep();
    expect(swept.unconsumed.realtime).toBe(2);
    expect(await platform.dataSource.query('SELECT id FROM webhook_events WHERE id = ANY($1::uuid[])', [missed])).toEqual([]);
    const metrics = await scrape(await services.get(MetricsListener).listen(0, '127.0.0.1'));
    expect(metrics.value('platform_outbox_events_expired_unconsumed_total', { consumer: 'realtime' })).toBe(2);

    // A gateway again: its relay takes the loss and begins a new epoch of the tenant's stream.
    gateway = await startGateway(platform, { REALTIME_RELAY_POLL_MS: '50' });
    await eventually(async () => expect(await platform.dataSource.query('SELECT tenant_id FROM outbox_losses')).toEqual([]));
    const resumed = await connect();
    const answer = await resumed.start({ type: 'resume', ...position });
    expect(answer.type).toBe('resync-required');
    expect(answer.epoch).not.toBe(position.epoch);
    // Delivery goes on after the resync.
    const [next] = await appendEvents(platform, tenantID, [messageOfConnection()]);
    await eventually(() => expect(resumed.eventIDs()).toEqual([next]));
    resumed.close();
  });
});
