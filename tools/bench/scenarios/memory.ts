import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoreTenantsConfig } from '@apps/core-tenants';
import { loadConfig } from '@platform/config';
import { createDataSource } from '@platform/database';
import { BillingStub, CustomHostnamesStub, startDnsStub, startSmtpStub, WhatsAppTemplateStub } from '@platform/testing';
import { BenchContext } from '../context';
import { benchNode, stopProcess, waitForHttp } from '../harness';
import { MemoryCgroup } from '../memory-cgroup';
import { cpuMicrosecondsOf, rssMebibytesOf } from '../process-usage';
import { runSteadyLoad } from '../steady-load';
import { AppLaunch, PLATFORM_APPS, PlatformApp, platformLaunches, PlatformPorts, startPlatformApps } from '../support/start-apps';
import { addDomain, loadStreams } from './memory/load';
import { PodShape, podShape, productionLikeEnvironment } from './memory/manifests';
import { AppMemory, GcTotals, printSoak, printStartups, SoakResult, Startup } from './memory/report';
import { seed, SeededData } from './memory/seed';
import { BENCH_CGROUP, DOMAIN, SETTLE_SECONDS, SNAPSHOT_DIR, SOAK_SECONDS, STARTUP_RUNS, UNLIMITED_SECONDS } from './memory/settings';

interface RunningApp {
  name: PlatformApp;
  process: ChildProcess;
  cgroup: MemoryCgroup;
  url: string;
  metricsUrl: string;
  startToReadyMs: number;
  /** CPU time (user + system) the process used until ready: what start-up costs whatever else the machine runs. */
  cpuToReadyMs: number;
  /** Set when the process ended before it was stopped (e.g. OOM-killed). */
  exit?: string;
}

/**
 * `npm run bench -- memory`: each app as its image runs it (built, plain
 * `node`, the ConfigMap's settings with NODE_ENV=production, against the local
 * PostgreSQL and Redis and local stubs of the providers), in a memory cgroup
 * of its own holding its pod's limit from k8s/. Measures start-to-ready times,
 * then runs one mixed load (reads, lists, writes, operation 1, sign-ins, the
 * sign-up mail and template queues, the billing outbox) without limits for
 * the p99 reference, then for BENCH_SOAK_SECONDS under the limits: RSS idle,
 * peak, at the end and its growth over the last half, GC time (prom-client's
 * PerformanceObserver histogram on /metrics), limit hits and OOM kills.
 */
export async function memory(context: BenchContext): Promise<void> {
  if (!MemoryCgroup.available()) throw new Error('the memory scenario needs the cgroup v1 memory controller at /sys/fs/cgroup/memory, and root');
  const ports = { core: context.portBase, services: context.portBase + 1, helpdesk: context.portBase + 2, metrics: context.portBase + 3 };
  const billing = await new BillingStub().start();
  const templates = await WhatsAppTemplateStub.start();
  const zoneID = randomBytes(16).toString('hex');
  const cloudflareToken = randomBytes(24).toString('base64url');
  const hostnames = await CustomHostnamesStub.start({ apiToken: cloudflareToken, zoneID, autoAdvance: true });
  const smtp = await startSmtpStub();
  const dns = await startDnsStub({ [DOMAIN]: { mx: [{ exchange: `mail.${DOMAIN}`, priority: 10 }] } });
  const env = productionLikeEnvironment(context, ports, {
    BILLING_API_URL: billing.url,
    WHATSAPP_API_BASE_URL: templates.baseUrl,
    CLOUDFLARE_BASE_URL: hostnames.baseUrl,
    CLOUDFLARE_ZONE_ID: zoneID,
    CLOUDFLARE_API_TOKEN: cloudflareToken,
    SMTP_URL: smtp.url,
    EMAIL_DNS_SERVERS: dns.server,
  });
  const pods = Object.fromEntries(PLATFORM_APPS.map((app) => [app, podShape(app)])) as Record<PlatformApp, PodShape>;
  const dataSource = createDataSource({ url: context.databaseUrl, poolSize: 2, applicationName: 'bench' });
  await dataSource.initialize();
  const data = await seed(dataSource, billing, loadConfig(CoreTenantsConfig, { ...process.env, ...env['core-tenants'] }));
  await dataSource.destroy();

  try {
    const startups = await measureStartups(platformLaunches(ports), env, pods);
    printStartups(startups);
    // BENCH_SOAK_SECONDS=0: the start-up times alone.
    if (SOAK_SECONDS <= 0) return;

    const unlimited = await soak('unlimited', UNLIMITED_SECONDS, env, pods, data, ports, false);
    const limited = await soak('limited', SOAK_SECONDS, env, pods, data, ports, true);
    printSoak(limited, unlimited);
    process.stdout.write(
      `\nwork done during the two runs: ${smtp.mails.length} sign-up mails delivered, ${billing.calls.filter((call) => call.method === 'DELETE').length} billing cancellations, ` +
        `${templates.requests.length} template submissions, ${hostnames.calls.length} custom-hostname calls\n`,
    );
  } finally {
    // The apps' cgroups and their parent: nothing of the run stays under the memory controller.
    MemoryCgroup.removeTree(BENCH_CGROUP);
    await billing.stop();
    await templates.close();
    await hostnames.close();
    await smtp.close();
    await dns.close();
  }
}

/** Starts an app as its image does (`node dist/apps/<app>/src/main.js`, NODE_OPTIONS from its Deployment) inside `cgroup`. */
async function startApp(
  { name, url, script, readyUrl }: AppLaunch,
  env: Record<string, string>,
  pod: PodShape,
  cgroup: MemoryCgroup,
  metricsPort: number,
  extraNodeFlags: string[] = [],
): Promise<RunningApp> {
  const { command, args } = cgroup.wrap(benchNode, [...extraNodeFlags, script]);
  const started = performance.now();
  const snapshots = SNAPSHOT_DIR ? { BENCH_HEAP_SNAPSHOT_DIR: SNAPSHOT_DIR, BENCH_HEAP_SNAPSHOT_NAME: name } : {};
  const child = spawn(command, args, { env: { PATH: process.env.PATH ?? '', ...env, ...pod.env, ...snapshots, METRICS_PORT: String(metricsPort) }, stdio: ['ignore', 'ignore', 'inherit'] });
  const app: RunningApp = { name, process: child, cgroup, url, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`, startToReadyMs: 0, cpuToReadyMs: 0 };
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code, signal) => {
      app.exit = signal ? `killed by ${signal}` : `exited with ${code}`;
      reject(new Error(`${name} ${app.exit} before it was ready`));
    }),
  );
  exited.catch(() => {});
  await Promise.race([waitForHttp(readyUrl, 60_000, 10), exited]);
  app.startToReadyMs = Math.round(performance.now() - started);
  app.cpuToReadyMs = Math.round(cpuMicrosecondsOf(child.pid as number) / 1000);
  return app;
}

/** Start-to-ready of each app, STARTUP_RUNS times each, one app at a time (core-tenants first: it signs the tokens the others check). */
async function measureStartups(launches: AppLaunch[], env: Record<PlatformApp, Record<string, string>>, pods: Record<PlatformApp, PodShape>): Promise<Map<PlatformApp, Startup[]>> {
  const times = new Map<PlatformApp, Startup[]>(PLATFORM_APPS.map((app) => [app, []]));
  for (const launch of launches) {
    const name = launch.name;
    const cgroup = MemoryCgroup.create(`${BENCH_CGROUP}/${name}`, pods[name].memoryLimitBytes);
    for (let run = 0; run < STARTUP_RUNS; run += 1) {
      const app = await startApp(launch, env[name], pods[name], cgroup, 0, startupProfileFlags(name, run));
      times.get(name)?.push({ wallMs: app.startToReadyMs, cpuMs: app.cpuToReadyMs });
      await stopProcess(app.process);
    }
  }
  return times;
}

/** With BENCH_CPU_PROFILE_DIR set, each start writes a V8 CPU profile (`<app>-start-<run>.cpuprofile`) when it stops. */
function startupProfileFlags(name: PlatformApp, run: number): string[] {
  const directory = process.env.BENCH_CPU_PROFILE_DIR;
  if (!directory) return [];
  return ['--cpu-prof', `--cpu-prof-dir=${directory}`, `--cpu-prof-name=${name}-start-${run}.cpuprofile`, '--require', join(__dirname, '..', 'exit-normally-on-signal.js')];
}

/** Starts the three apps (limited: each in its pod's limit), lets them settle, reads them idle, runs the load, reads them again. */
async function soak(
  label: string,
  seconds: number,
  env: Record<PlatformApp, Record<string, string>>,
  pods: Record<PlatformApp, PodShape>,
  data: SeededData,
  ports: PlatformPorts & { metrics: number },
  limited: boolean,
): Promise<SoakResult> {
  const snapshotFlags = SNAPSHOT_DIR && !limited ? ['--require', join(__dirname, '..', 'heap-snapshot-on-request.js')] : [];
  if (snapshotFlags.length) mkdirSync(SNAPSHOT_DIR as string, { recursive: true });
  const apps: RunningApp[] = [];
  try {
    await startPlatformApps(
      platformLaunches(ports),
      (launch, index) => {
        const cgroup = MemoryCgroup.create(`${BENCH_CGROUP}/${launch.name}`, limited ? pods[launch.name].memoryLimitBytes : undefined);
        return startApp(launch, env[launch.name], pods[launch.name], cgroup, ports.metrics + index, snapshotFlags);
      },
      apps,
    );
    await pause(SETTLE_SECONDS * 1000);
    if (snapshotFlags.length) for (const app of apps) await writeHeapSnapshot(app, 'idle');
    const idle = apps.map((app) => (app.exit ? NaN : rssMebibytesOf(app.process.pid as number)));
    const gcBefore = await Promise.all(apps.map((app) => gcTotals(app.metricsUrl)));
    for (const app of apps) app.cgroup.resetCounters();
    const samples: number[][] = apps.map(() => []);
    process.stderr.write(`memory: ${label} load for ${seconds} s\n`);
    const refreshed = await addDomain(data, apps[2].url, `ajuda-${label}.${DOMAIN}`);
    const streams = await runSteadyLoad(loadStreams(data, apps, refreshed), seconds, () =>
      apps.forEach((app, index) => {
        // A process killed between the check and the read (an OOM kill) is reported by its exit.
        if (app.exit === undefined) samples[index].push(rssOrNaN(app.process.pid as number));
      }),
    );
    const gcAfter = await Promise.all(apps.map((app) => (app.exit ? { count: NaN, seconds: NaN } : gcTotals(app.metricsUrl))));
    const memories = apps.map((app, index): AppMemory => ({
      name: app.name,
      limitMiB: limited ? pods[app.name].memoryLimitBytes / 2 ** 20 : undefined,
      idleMiB: idle[index],
      peakMiB: Math.max(...samples[index].filter(Number.isFinite)),
      endMiB: samples[index].at(-1) ?? NaN,
      growthLastHalf: growthOverLastHalf(samples[index]),
      cgroupPeakMiB: app.cgroup.maxUsageMiB(),
      gc: { count: gcAfter[index].count - gcBefore[index].count, seconds: gcAfter[index].seconds - gcBefore[index].seconds },
      failCount: app.cgroup.failCount(),
      oomKills: app.cgroup.oomKills(),
      exit: app.exit,
    }));
    if (snapshotFlags.length) for (const app of apps) await writeHeapSnapshot(app, 'after-load');
    return { seconds, streams, apps: memories };
  } finally {
    for (const app of apps.reverse()) await stopProcess(app.process);
    for (const app of apps) app.cgroup.remove();
  }
}

/** prom-client's nodejs_gc_duration_seconds (a PerformanceObserver of GC entries), summed over GC kinds. */
async function gcTotals(metricsUrl: string): Promise<GcTotals> {
  const text = await (await fetch(metricsUrl)).text();
  const sum = (suffix: string) =>
    [...text.matchAll(new RegExp(`^nodejs_gc_duration_seconds_${suffix}\\{[^}]*\\} ([\\d.e+-]+)$`, 'gm'))].reduce((total, match) => total + Number(match[1]), 0);
  return { count: sum('count'), seconds: sum('sum') };
}

/** Growth of the least-squares line through the second half of the samples, over that half, relative to its start. */
export function growthOverLastHalf(samples: number[]): number {
  const half = samples.slice(Math.floor(samples.length / 2));
  if (half.length < 2) return NaN;
  const n = half.length;
  const meanX = (n - 1) / 2;
  const meanY = half.reduce((sum, value) => sum + value, 0) / n;
  let covariance = 0;
  let variance = 0;
  half.forEach((value, x) => {
    covariance += (x - meanX) * (value - meanY);
    variance += (x - meanX) ** 2;
  });
  const slope = covariance / variance;
  const start = meanY - slope * meanX;
  return (slope * (n - 1)) / start;
}

/**
 * Asks for a snapshot (the app runs with heap-snapshot-on-request.js preloaded) and
 * renames the snapshot after the app and the moment. A snapshot that cannot
 * be taken is reported, not fatal: the figures of the run stand without it.
 */
async function writeHeapSnapshot(app: RunningApp, moment: string): Promise<void> {
  const dir = SNAPSHOT_DIR as string;
  const count = (snapshotCounts.get(app.name) ?? 0) + 1;
  snapshotCounts.set(app.name, count);
  const written = join(dir, `${app.name}-${app.process.pid}-${count}.heapsnapshot`);
  writeFileSync(join(dir, `${app.name}-${app.process.pid}.request`), '');
  const deadline = Date.now() + 300_000;
  while (!existsSync(written)) {
    if (Date.now() > deadline || app.exit) {
      process.stderr.write(`memory: no heap snapshot of ${app.name} (${moment})${app.exit ? `: ${app.exit}` : ' within 300 s'}\n`);
      return;
    }
    await pause(500);
  }
  const target = join(dir, `${app.name}-${moment}.heapsnapshot`);
  renameSync(written, target);
  process.stderr.write(`memory: heap snapshot ${target} (${(statSync(target).size / 2 ** 20).toFixed(0)} MiB)\n`);
}

const snapshotCounts = new Map<PlatformApp, number>();

function rssOrNaN(pid: number): number {
  try {
    return rssMebibytesOf(pid);
  } catch {
    return NaN;
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
