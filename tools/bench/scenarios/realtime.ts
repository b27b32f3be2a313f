import { ChildProcess, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { trustedTenantScope } from '@platform/auth';
import { afterCommit, createDataSource, runTransaction } from '@platform/database';
import { FixtureBuilder } from '@platform/testing';
import { transportNamespaceOf } from '@platform/transport';
import { OutboxRepository } from '@platform/outbox';
import { outboxCommittedChannel, OutboxNudges } from '@platform/webhooks';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { BenchContext } from '../context';
import { startProcess, stopProcess, waitForHttp } from '../harness';
import { cpuMicrosecondsOf, peakRssMebibytesOf, rssMebibytesOf } from '../process-usage';
import { RealtimeClientPool } from '../realtime-client-pool';
import { podShape } from './memory/manifests';

/** Sockets one gateway holds idle for the memory figure: the goal's 10,000 by default. */
const IDLE_SOCKETS = Number(process.env.BENCH_REALTIME_IDLE_SOCKETS ?? 10_000);
/** The fan-out rows, `<sockets>x<events per second>` each: the earlier run's load, then the goal's. */
const FAN_OUT_ROWS = (process.env.BENCH_REALTIME_FAN_OUT ?? '500x50,1000x500').split(',').map((row) => {
  const [sockets, rate] = row.split('x').map(Number);
  return { sockets, rate };
});
const SECONDS = Number(process.env.BENCH_REALTIME_SECONDS ?? 10);
/** Child processes holding the client sockets (the load generator), apart from the bench's. */
const CLIENT_PROCESSES = Number(process.env.BENCH_REALTIME_CLIENT_PROCESSES ?? 2);
/** The gateway's entry point: another build's (a copy of dist/ from before a change) compares the two under the same load generator. */
const GATEWAY_SCRIPT = process.env.BENCH_REALTIME_GATEWAY ?? 'dist/apps/realtime-gateway/src/main.js';
/**
 * The relay's poll: production's 100 ms by default, so the latency rows show
 * what the nudge on commit gives (the events are appended as the platform
 * appends them, nudging the relay); the runs before the nudge used 20.
 */
const RELAY_POLL_MS = process.env.BENCH_REALTIME_RELAY_POLL_MS ?? '100';
/** `off` appends without the nudge, leaving the relay to its poll: the same run without it, for comparison. */
const NUDGE = process.env.BENCH_REALTIME_NUDGE !== 'off';
/** The loss check's load: as the earlier runs. */
const LOSS = { sockets: 500, rate: 50 };
/** Appends in flight at once: one at a time cannot keep 500 commits a second on a busy machine. */
const APPEND_CONCURRENCY = 8;
/** With it set, the idle gateway writes a heap snapshot there before and after its sockets open (heap-summary.ts reads them). */
const SNAPSHOT_DIR = process.env.BENCH_HEAP_SNAPSHOT_DIR;
/**
 * `on` pins the load generator's processes to core 0 and the gateways to core
 * 1 (`taskset`), so neither waits for the other's core and the latency is
 * the gateways'; PostgreSQL, Redis and the bench's appends stay free to run
 * on either. Off by default: a machine of one core cannot split.
 */
const PIN = process.env.BENCH_REALTIME_PIN === 'on';
/** Descriptors a process needs besides its sockets (modules, pools, pipes). */
const SPARE_DESCRIPTORS = 512;

interface Gateway {
  process: ChildProcess;
  pid: number;
  url: string;
}

interface HeapUsage {
  collected: boolean;
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

/**
 * The real-time gateway (docs/realtime.md), two processes on loopback over
 * this run's database and Redis, each run as its pod runs it (NODE_OPTIONS of
 * k8s/base/realtime-gateway.yaml). The client sockets live in child
 * processes (realtime-clients.ts), so the CPU each gateway spends per event
 * is read apart from the load generator's (/proc/<pid>/stat):
 * - idle sockets on one gateway: RSS and the heap that survives a collection,
 *   before and after, per socket, and how fast they opened;
 * - commit-to-socket latency and CPU per event while events fan out to many
 *   sockets, spread over both, at each FAN_OUT_ROWS load;
 * - events lost when one gateway is killed (SIGKILL) mid-stream and its
 *   clients resume on the other: every client must end with every event.
 * Gateway 0 holds the idle sockets and outlives the run (gateway 1 is the
 * one killed), so its CPU profile (BENCH_CPU_PROFILE_DIR) covers every
 * phase; the run prints when each phase ran, in seconds after gateway 0
 * started, for profile-summary.js's FROM_SECONDS and TO_SECONDS.
 */
export async function realtime(context: BenchContext): Promise<void> {
  assertDescriptors(IDLE_SOCKETS + SPARE_DESCRIPTORS);
  const usageDir = mkdtempSync(join(tmpdir(), 'bench-realtime-'));
  const pod = podShape('realtime-gateway');
  const ports = [context.portBase, context.portBase + 1];
  const preloads = ['heap-usage-on-request.js', ...(SNAPSHOT_DIR ? ['heap-snapshot-on-request.js'] : [])].map((file) => `--require ${join(__dirname, '..', file)}`);
  if (SNAPSHOT_DIR) mkdirSync(SNAPSHOT_DIR, { recursive: true });
  const env = (port: number) => ({
    ...context.env,
    ...pod.env,
    NODE_OPTIONS: [pod.env.NODE_OPTIONS ?? '', '--expose-gc', ...preloads].join(' ').trim(),
    BENCH_HEAP_USAGE_DIR: usageDir,
    ...(SNAPSHOT_DIR ? { BENCH_HEAP_SNAPSHOT_DIR: SNAPSHOT_DIR, BENCH_HEAP_SNAPSHOT_NAME: 'realtime-gateway' } : {}),
    REALTIME_GATEWAY_PORT: String(port),
    REALTIME_RELAY_POLL_MS: RELAY_POLL_MS,
    REALTIME_MAX_SOCKETS_PER_PRINCIPAL: '10000',
    REALTIME_MAX_SOCKETS_PER_TENANT: '100000',
    REALTIME_MAX_FRAMES_PER_10S: '1000',
  });
  const gateways: Gateway[] = [];
  let startedAt = 0;
  /** Seconds since gateway 0 started: where a phase lies in its CPU profile. */
  const since = () => ((performance.now() - startedAt) / 1000).toFixed(1);
  const dataSource = createDataSource({ url: context.databaseUrl, poolSize: APPEND_CONCURRENCY + 1, applicationName: 'bench' });
  await dataSource.initialize();
  const redis = new Redis(context.redisUrl, { lazyConnect: true });
  await redis.connect();
  const nudges = new OutboxNudges(redis, outboxCommittedChannel(transportNamespaceOf({ ...context.env, DATABASE_URL: context.databaseUrl })));
  const clients = RealtimeClientPool.start(CLIENT_PROCESSES);
  if (PIN) for (const pid of clients.pids) pinToCore(pid, 0);
  process.stdout.write(
    `\nGateway ${GATEWAY_SCRIPT}, NODE_OPTIONS ${pod.env.NODE_OPTIONS ?? '(none)'} (the pod's); clients in ${CLIENT_PROCESSES} processes; relay poll ${RELAY_POLL_MS} ms, ${NUDGE ? 'nudged on commit' : 'not nudged'}` +
      `${PIN ? '; clients pinned to core 0, gateways to core 1' : ''}.\n`,
  );
  try {
    for (const port of ports) {
      if (gateways.length === 0) startedAt = performance.now();
      const child = await startProcess(GATEWAY_SCRIPT, env(port));
      if (PIN) pinToCore(child.pid as number, 1);
      gateways.push({ process: child, pid: child.pid as number, url: `ws://127.0.0.1:${port}/v1/realtime` });
      await waitForHttp(`http://127.0.0.1:${port}/health/ready`, 90_000);
    }
    const fixtures = new FixtureBuilder(dataSource);
    const tenantID = await fixtures.tenant();
    const plugin = await fixtures.plugin();
    await fixtures.connection(tenantID, plugin.pluginID);
    // The plugin sees every session event of the tenant (docs/realtime.md, Who receives what).
    const authorization = plugin.authorization;
    const url = (gateway: Gateway) => `${gateway.url}?tenantID=${tenantID}`;
    await pause(1_000);
    let sequence = 0;
    const append = async (rate: number) => {
      const from = sequence;
      sequence += rate * SECONDS;
      return appendAtRate(dataSource, nudges, tenantID, rate, SECONDS, from);
    };

    // 1. Idle sockets on gateway 0.
    const idleGateway = gateways[0];
    const idleFrom = since();
    await heapSnapshotOf(idleGateway.pid);
    const before = await heapUsageOf(usageDir, idleGateway.pid);
    const openCpuBefore = cpuMicrosecondsOf(idleGateway.pid);
    const opening = performance.now();
    await clients.open(IDLE_SOCKETS, [url(idleGateway)], authorization);
    const openSeconds = (performance.now() - opening) / 1000;
    const idleTo = since();
    const openCpu = cpuMicrosecondsOf(idleGateway.pid) - openCpuBefore;
    const openLoad = loadavg()[0];
    await pause(2_000);
    const rssUncollected = rssMebibytesOf(idleGateway.pid);
    const peak = peakRssMebibytesOf(idleGateway.pid);
    const after = await heapUsageOf(usageDir, idleGateway.pid);
    await heapSnapshotOf(idleGateway.pid);
    const perSocket = (bytes: number) => ((bytes / IDLE_SOCKETS) / 1024).toFixed(1);
    process.stdout.write(
      `\nIdle sockets: ${IDLE_SOCKETS} on one gateway. After a collection: RSS ${mib(before.rss)} MiB before, ${mib(after.rss)} MiB after ` +
        `(${perSocket(after.rss - before.rss)} KiB per socket); heap used ${mib(before.heapUsed)} -> ${mib(after.heapUsed)} MiB ` +
        `(${perSocket(after.heapUsed - before.heapUsed)} KiB per socket), external ${mib(before.external)} -> ${mib(after.external)} MiB. ` +
        `Before the collection: RSS ${rssUncollected} MiB; peak RSS ${peak} MiB (pod limit ${mib(pod.memoryLimitBytes)} MiB).` +
        `${after.collected ? '' : ' (no gc(): figures include garbage)'}\n` +
        `Opened (connect + subscribe) in ${openSeconds.toFixed(1)} s, ${Math.round(IDLE_SOCKETS / openSeconds)} sockets/s, ` +
        `gateway CPU ${Math.round(openCpu / IDLE_SOCKETS)} µs per socket (load average ${openLoad.toFixed(1)}). Gateway 0's profile: ${idleFrom} s to ${idleTo} s.\n`,
    );
    await clients.close();

    // 2. Fan-out latency and CPU per event, sockets split over both gateways.
    for (const row of FAN_OUT_ROWS) {
      await clients.open(row.sockets, gateways.map(url), authorization);
      await clients.reset(false);
      const cpuBefore = gateways.map((gateway) => cpuMicrosecondsOf(gateway.pid));
      const clientCpuBefore = clients.cpuMicroseconds();
      const load = loadavg()[0];
      const started = performance.now();
      const rowFrom = since();
      const sent = await append(row.rate);
      const counts = await clients.settle(sent);
      const wallSeconds = (performance.now() - started) / 1000;
      const gatewayCpu = gateways.reduce((sum, gateway, index) => sum + cpuMicrosecondsOf(gateway.pid) - cpuBefore[index], 0);
      const clientCpu = clients.cpuMicroseconds() - clientCpuBefore;
      const { p50, p99, max } = counts.latency;
      process.stdout.write(
        `\nFan-out: ${row.rate} events/s for ${SECONDS} s to ${row.sockets} sockets on two gateways: ${counts.frames} of ${sent * row.sockets} frames ` +
          `(${row.sockets - counts.open} sockets closed), commit-to-socket p50 ${p50} ms, p99 ${p99} ms, max ${max} ms. ` +
          `Gateways' CPU ${Math.round(gatewayCpu / sent)} µs per event, ${(gatewayCpu / Math.max(1, counts.frames)).toFixed(2)} µs per frame, ` +
          `${((gatewayCpu / 1e6 / wallSeconds) * 100).toFixed(0)}% of a core; clients' ${(clientCpu / Math.max(1, counts.frames)).toFixed(2)} µs per frame, ${((clientCpu / 1e6 / wallSeconds) * 100).toFixed(0)}% ` +
          `(load average ${load.toFixed(1)} -> ${loadavg()[0].toFixed(1)}). Gateway 0's profile: ${rowFrom} s to ${since()} s.\n`,
      );
      await clients.close();
    }

    // 3. A gateway killed mid-stream; its clients resume on the other.
    await clients.open(LOSS.sockets, gateways.map(url), authorization);
    await clients.reset(true);
    const streaming = append(LOSS.rate);
    await pause((SECONDS * 1000) / 2);
    gateways[1].process.kill('SIGKILL');
    const { resumed } = await clients.resume(url(gateways[1]), url(gateways[0]), authorization);
    const sent = await streaming;
    await clients.settle(sent);
    const { lost } = await clients.lost(sequence - sent, sent);
    process.stdout.write(`\nGateway killed (SIGKILL) mid-stream, ${resumed} clients resumed on the other: ${sent} events, ${lost} lost (goal 0).\n`);
    await clients.close();
  } finally {
    clients.stop();
    for (const gateway of gateways) await stopProcess(gateway.process);
    await dataSource.destroy();
    redis.disconnect();
    rmSync(usageDir, { recursive: true, force: true });
  }
}

/** The gateway's memory after a collection (heap-usage-on-request.ts). */
async function heapUsageOf(dir: string, pid: number): Promise<HeapUsage> {
  const answer = join(dir, `${pid}.json`);
  rmSync(answer, { force: true });
  writeFileSync(join(dir, `${pid}.request`), '');
  const deadline = Date.now() + 30_000;
  while (!existsSync(answer)) {
    if (Date.now() > deadline) throw new Error(`gateway ${pid} wrote no heap usage`);
    await pause(50);
  }
  return JSON.parse(readFileSync(answer, 'utf8')) as HeapUsage;
}

/** With SNAPSHOT_DIR, asks the gateway for a heap snapshot (heap-snapshot-on-request.ts) and waits until it is written. */
async function heapSnapshotOf(pid: number): Promise<void> {
  if (!SNAPSHOT_DIR) return;
  const request = join(SNAPSHOT_DIR, `realtime-gateway-${pid}.request`);
  writeFileSync(request, '');
  const deadline = Date.now() + 300_000;
  while (existsSync(request)) {
    if (Date.now() > deadline) throw new Error(`gateway ${pid} wrote no heap snapshot`);
    await pause(200);
  }
  process.stdout.write(`\nHeap snapshot of gateway ${pid} in ${SNAPSHOT_DIR}.\n`);
}

/**
 * Every socket is a descriptor, in the gateway and in a client process: a
 * limit below the idle sockets fails the run here, clearly, rather than as
 * EMFILE half-way. Node cannot raise its own limit; the shell can
 * (`ulimit -n`, up to the hard limit).
 */
function assertDescriptors(needed: number): void {
  const line = /^Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
  const soft = line?.[1] === 'unlimited' ? Infinity : Number(line?.[1] ?? Infinity);
  if (soft < needed) {
    throw new Error(`open files limited to ${soft}, ${needed} needed for BENCH_REALTIME_IDLE_SOCKETS=${IDLE_SOCKETS}: run \`ulimit -n ${needed}\` first (hard limit ${line?.[2]}), or lower it`);
  }
}

/** Appends `rate` events a second for `seconds`, each committed on its own, numbered from `from` (data.seq); answers how many. */
async function appendAtRate(dataSource: DataSource, nudges: OutboxNudges, tenantID: string, rate: number, seconds: number, from: number): Promise<number> {
  const repository = new OutboxRepository(dataSource);
  const sessionID = randomUUID();
  const total = rate * seconds;
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  for (let index = 0; index < total; index += 1) {
    const wait = started + (index * 1000) / rate - performance.now();
    if (wait > 0) await pause(wait);
    if (inFlight.size >= APPEND_CONCURRENCY) await Promise.race(inFlight);
    // As WebhookEvents.emit appends a conversation event: in the one transaction runner, nudging the relay once it committed.
    const appending: Promise<void> = runTransaction(dataSource, async (runner) => {
      if (NUDGE) afterCommit(runner, 'outbox-nudge', () => nudges.committed());
      await repository.append(runner, trustedTenantScope(tenantID), {
        type: 'message.created',
        version: 1,
        orderingKey: `session:${sessionID}`,
        data: { sessionID, listed: true, pluginConnectionID: null, operatorID: null, participantIDs: [], sentAt: Date.now(), seq: from + index },
        emittedBy: 'bench',
        headers: null,
      });
    }).finally(() => inFlight.delete(appending));
    inFlight.add(appending);
  }
  await Promise.all(inFlight);
  return total;
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Binds every thread of `pid` to one core (util-linux `taskset`; the run stops if it is missing). */
function pinToCore(pid: number, core: number): void {
  execFileSync('taskset', ['-a', '-cp', String(core), String(pid)], { stdio: 'ignore' });
}
