import { randomUUID } from 'node:crypto';
import { ChildProcess } from 'node:child_process';
import { trustedTenantScope } from '@platform/auth';
import { createDataSource } from '@platform/database';
import { FixtureBuilder } from '@platform/testing';
import { WebhookEventsRepository } from '@platform/webhooks';
import { DataSource } from 'typeorm';
import WebSocket from 'ws';
import { BenchContext } from '../context';
import { percentiles, startProcess, stopProcess, waitForHttp } from '../harness';
import { rssMebibytesOf } from '../process-usage';

/** Sockets one gateway holds idle for the memory figure: sized for a shared 2-core machine, extrapolated per socket. */
const IDLE_SOCKETS = Number(process.env.BENCH_REALTIME_IDLE_SOCKETS ?? 2_000);
/** Sockets the events fan out to, and events per second, for the latency figure. */
const FAN_OUT_SOCKETS = Number(process.env.BENCH_REALTIME_FAN_OUT_SOCKETS ?? 500);
const EVENTS_PER_SECOND = Number(process.env.BENCH_REALTIME_EVENTS_PER_SECOND ?? 50);
const SECONDS = 10;

interface Client {
  socket: WebSocket;
  received: Set<string>;
  last?: { epoch: string; offset: string };
  latencies: number[];
}

/**
 * The real-time gateway (docs/realtime.md), two processes on loopback over
 * this run's database and Redis:
 * - idle sockets on one gateway and its memory per socket (RSS before and after);
 * - commit-to-socket latency while events fan out to many sockets, spread over both;
 * - events lost when one gateway is killed (SIGKILL) mid-stream and its clients
 *   resume on the other: every client must end with every event.
 */
export async function realtime(context: BenchContext): Promise<void> {
  const ports = [context.portBase, context.portBase + 1];
  const env = (port: number) => ({
    ...context.env,
    REALTIME_GATEWAY_PORT: String(port),
    REALTIME_RELAY_POLL_MS: '20',
    REALTIME_MAX_SOCKETS_PER_PRINCIPAL: '10000',
    REALTIME_MAX_SOCKETS_PER_TENANT: '100000',
    REALTIME_MAX_FRAMES_PER_10S: '1000',
  });
  const gateways: ChildProcess[] = [];
  const dataSource = createDataSource({ url: context.databaseUrl, poolSize: 2, applicationName: 'bench' });
  await dataSource.initialize();
  try {
    for (const port of ports) {
      gateways.push(await startProcess('dist/apps/realtime-gateway/src/main.js', env(port)));
      await waitForHttp(`http://127.0.0.1:${port}/health/ready`, 90_000);
    }
    const fixtures = new FixtureBuilder(dataSource);
    const tenantID = await fixtures.tenant();
    const plugin = await fixtures.plugin();
    await fixtures.connection(tenantID, plugin.pluginID);
    // The plugin sees every session event of the tenant (docs/realtime.md, Who receives what).
    const authorization = plugin.authorization;
    const url = (port: number) => `ws://127.0.0.1:${port}/v1/realtime?tenantID=${tenantID}`;
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    // 1. Idle sockets on gateway 0.
    const before = rssMebibytesOf(gateways[0].pid as number);
    const idle: Client[] = [];
    const opening = performance.now();
    for (let index = 0; index < IDLE_SOCKETS; index += 50) {
      idle.push(...(await Promise.all(Array.from({ length: Math.min(50, IDLE_SOCKETS - index) }, () => open(url(ports[0]), authorization)))));
    }
    const openSeconds = (performance.now() - opening) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const after = rssMebibytesOf(gateways[0].pid as number);
    const perSocketKiB = ((after - before) * 1024) / IDLE_SOCKETS;
    process.stdout.write(
      `\nIdle sockets: ${IDLE_SOCKETS} on one gateway, RSS ${before} MiB before, ${after} MiB after: ${perSocketKiB.toFixed(1)} KiB per socket ` +
        `(10,000 sockets ≈ ${Math.round(before + (perSocketKiB * 10_000) / 1024)} MiB; goal < 384 MiB). Opened (connect + subscribe) in ${openSeconds.toFixed(1)} s, ` +
        `${Math.round(IDLE_SOCKETS / openSeconds)} sockets/s: a reconnect storm of that many costs this.\n`,
    );
    for (const client of idle) client.socket.terminate();

    // 2. Fan-out latency, sockets split over both gateways.
    const fanOut: Client[] = [];
    for (let index = 0; index < FAN_OUT_SOCKETS; index += 50) {
      fanOut.push(...(await Promise.all(Array.from({ length: Math.min(50, FAN_OUT_SOCKETS - index) }, (_, at) => open(url(ports[(index + at) % 2]), authorization)))));
    }
    const sent = await appendAtRate(dataSource, tenantID, EVENTS_PER_SECOND, SECONDS);
    await settle(fanOut, sent.length);
    const latency = percentiles(fanOut.flatMap((client) => client.latencies));
    const delivered = fanOut.reduce((sum, client) => sum + client.received.size, 0);
    process.stdout.write(
      `\nFan-out: ${EVENTS_PER_SECOND} events/s for ${SECONDS} s to ${FAN_OUT_SOCKETS} sockets on two gateways (${delivered} frames): ` +
        `commit-to-socket p50 ${latency.p50} ms, p99 ${latency.p99} ms.\n`,
    );

    // 3. A gateway killed mid-stream; its clients resume on the other.
    for (const client of fanOut) client.received.clear();
    const streaming = appendAtRate(dataSource, tenantID, EVENTS_PER_SECOND, SECONDS);
    await new Promise((resolve) => setTimeout(resolve, (SECONDS * 1000) / 2));
    gateways[1].kill('SIGKILL');
    const moved = fanOut.filter((_, index) => index % 2 === 1);
    await Promise.all(
      moved.map(async (client, index) => {
        await new Promise((resolve) => setTimeout(resolve, index % 100));
        const resumed = await open(url(ports[0]), authorization, client);
        client.socket = resumed.socket;
      }),
    );
    const ids = await streaming;
    await settle(fanOut, ids.length);
    const lost = fanOut.reduce((sum, client) => sum + ids.filter((id) => !client.received.has(id)).length, 0);
    process.stdout.write(`\nGateway killed (SIGKILL) mid-stream, ${moved.length} clients resumed on the other: ${ids.length} events, ${lost} lost (goal 0).\n`);
    for (const client of fanOut) client.socket.terminate();
  } finally {
    for (const gateway of gateways) await stopProcess(gateway);
    await dataSource.destroy();
  }
}

/** Opens a socket and subscribes, or resumes `previous` (its events and position are kept). */
function open(url: string, authorization: string, previous?: Client): Promise<Client> {
  const client: Client = previous ?? { socket: undefined as unknown as WebSocket, received: new Set(), latencies: [] };
  const socket = new WebSocket(url, { headers: { authorization }, perMessageDeflate: false });
  client.socket = socket;
  return new Promise((resolve, reject) => {
    // A killed gateway resets its sockets: an error after the open is the close that follows.
    socket.on('error', reject);
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { type: string; epoch?: string; offset?: string; event?: { id: string; data: { sentAt?: number } } };
      if (frame.type === 'welcome') socket.send(JSON.stringify(client.last ? { type: 'resume', ...client.last } : { type: 'subscribe' }));
      if (frame.type === 'subscribed' || frame.type === 'resync-required') resolve(client);
      if (frame.offset && frame.epoch) client.last = { epoch: frame.epoch, offset: frame.offset };
      if (frame.type === 'event' && frame.event && !client.received.has(frame.event.id)) {
        client.received.add(frame.event.id);
        if (frame.event.data.sentAt) client.latencies.push(Date.now() - frame.event.data.sentAt);
      }
    });
  });
}

/** Appends one event per 1/rate s for `seconds`, each committed on its own; answers their ids in order. */
async function appendAtRate(dataSource: DataSource, tenantID: string, rate: number, seconds: number): Promise<string[]> {
  const repository = new WebhookEventsRepository(dataSource);
  const sessionID = randomUUID();
  const ids: string[] = [];
  const started = performance.now();
  for (let index = 0; index < rate * seconds; index += 1) {
    const due = started + (index * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const id = await dataSource.transaction(async (runner) => {
      await repository.append(runner, trustedTenantScope(tenantID), {
        type: 'message.created',
        version: 1,
        orderingKey: `session:${sessionID}`,
        data: { sessionID, listed: true, pluginConnectionID: null, operatorID: null, participantIDs: [], sentAt: Date.now() },
        emittedBy: 'bench',
        headers: null,
      });
      const [row] = (await runner.query(`SELECT id FROM webhook_events WHERE tenant_id = $1 ORDER BY occurred_at DESC, id DESC LIMIT 1`, [tenantID])) as { id: string }[];
      return row.id;
    });
    ids.push(id);
  }
  return ids;
}

/** Waits until every client received `count` events, or 30 s passed. */
async function settle(clients: Client[], count: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && clients.some((client) => client.received.size < count)) await new Promise((resolve) => setTimeout(resolve, 100));
}
