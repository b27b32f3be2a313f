import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { CoreTenantsConfig, issueOperatorToken } from '@apps/core-tenants';
import { loadConfig } from '@platform/config';
import { createDataSource } from '@platform/database';
import {
  BillingStub,
  CampaignFixtures,
  ConversationFixtures,
  CustomHostnamesStub,
  FixtureBuilder,
  generateTestSigningKey,
  OUT_OF_REACH_RATE_LIMITS,
  startDnsStub,
  startSmtpStub,
  WhatsAppTemplateStub,
} from '@platform/testing';
import { DataSource } from 'typeorm';
import { BenchContext } from '../context';
import { benchNode, benchNodeVersion, percentiles, stopProcess, waitForHttp } from '../harness';
import { bytesOfQuantity, MemoryCgroup } from '../memory-cgroup';
import { cpuMicrosecondsOf, rssMebibytesOf } from '../process-usage';
import { runSteadyLoad, Stream, StreamResult } from '../steady-load';
import { AppLaunch, PLATFORM_APPS, PlatformApp, platformAddresses, platformLaunches, PlatformPorts, startPlatformApps } from '../support/start-apps';

/** Length of the soak under the pods' limits (the figures quote 600 s). */
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
/** Length of the same load without a limit, for the p99 it is compared with. */
const UNLIMITED_SECONDS = Number(process.env.BENCH_SOAK_UNLIMITED_SECONDS ?? Math.min(120, SOAK_SECONDS));
/** Starts of each app for the start-up times. */
const STARTUP_RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
/** Multiplies every stream's rate (1: the mix below, about 100 requests/s in all). */
const RATE = Number(process.env.BENCH_SOAK_RATE ?? 1);
/** Seconds between an app's readiness and its idle reading (pools fill, timers run once, boot code settles). */
const SETTLE_SECONDS = 10;
/** Where to write heap snapshots (idle and after the unlimited run's load); unset: none. */
const SNAPSHOT_DIR = process.env.BENCH_HEAP_SNAPSHOT_DIR;

const DOMAIN = 'bench-atendimento.com.br';
const ROWS = 60;
const SIGN_IN_OPERATORS = 20;
const TARGETS = { peakShareOfLimit: 0.6, growthOverLastHalf: 0.05 };
/** The memory cgroup holding one cgroup per app (`/sys/fs/cgroup/memory/platform-bench/<app>`). */
const BENCH_CGROUP = 'platform-bench';

/** What the app's Deployment says about its container: memory request and limit, and its own environment. */
export interface PodShape {
  memoryRequestBytes: number;
  memoryLimitBytes: number;
  env: Record<string, string>;
}

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

interface AppMemory {
  name: PlatformApp;
  limitMiB?: number;
  idleMiB: number;
  peakMiB: number;
  endMiB: number;
  /** Growth of RSS over the last half of the load (least-squares line through its samples), as a share. */
  growthLastHalf: number;
  cgroupPeakMiB: number;
  gc: GcTotals;
  failCount: number;
  oomKills: number;
  exit?: string;
}

interface GcTotals {
  count: number;
  seconds: number;
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

/** The ConfigMap's settings and each Deployment's own, with the secrets and addresses of this machine. */
function productionLikeEnvironment(context: BenchContext, ports: PlatformPorts, providers: Record<string, string>): Record<PlatformApp, Record<string, string>> {
  const secret = () => randomBytes(24).toString('base64url');
  const key = generateTestSigningKey();
  const configMap = manifestObjects('configmap.yaml').find((object) => object.kind === 'ConfigMap')?.data as Record<string, string>;
  // Local PostgreSQL trusts loopback and ignores the password; Redis without one accepts any.
  const databaseUrl = Object.assign(new URL(context.databaseUrl), { password: secret() }).toString();
  const redisUrl = Object.assign(new URL(context.redisUrl), { password: secret() }).toString();
  const common = {
    ...configMap,
    ...OUT_OF_REACH_RATE_LIMITS,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    TRANSPORT_NAMESPACE: `bench-memory-${process.pid}`,
    TRANSPORT_SECRET: secret(),
    CACHE_SECRET: secret(),
    ...platformAddresses(ports),
    // Every load request comes from 127.0.0.1: lift the per-address limits a real crowd spreads over many.
    SIGN_IN_ATTEMPTS_PER_IP: '1000000',
    SIGN_IN_ATTEMPTS_PER_ADDRESS: '10000',
    SIGN_IN_ATTEMPTS_PER_ADDRESS_CEILING: '1000000',
    EMAIL_VERIFICATION_REQUESTS_PER_IP: '1000000',
    SIGN_UP_ATTEMPTS_PER_IP: '1000000',
    ...providers,
  };
  return {
    'core-tenants': {
      ...common,
      OPERATOR_JWT_PRIVATE_KEY: key.privateKeyPem,
      BILLING_API_KEY: `sk_live_${secret()}`,
      VM_PROVIDER_URL: 'http://127.0.0.1:9',
      VM_PROVIDER_TOKEN: secret(),
    },
    'services-api': {
      ...common,
      SIGN_UP_SECRET: secret(),
      WHATSAPP_ACCESS_TOKEN: `EAAG${secret()}`,
      WHATSAPP_APP_SECRET: secret(),
      WHATSAPP_WEBHOOK_VERIFY_TOKEN: secret(),
      WEBHOOK_SECRETS_KEY: secret(),
    },
    'plugins-helpdesk': { ...common },
  };
}

/** The objects of one file of k8s/ (k8s/base/ when the manifests live there). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- manifests are checked where read
function manifestObjects(file: string): Record<string, any>[] {
  const path = ['k8s/base', 'k8s'].map((dir) => join(dir, file)).find((candidate) => existsSync(candidate));
  if (!path) throw new Error(`no ${file} under k8s/`);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- manifests are read loosely, then checked field by field
  return parseAllDocuments(readFileSync(path, 'utf8')).map((document) => document.toJS() as Record<string, any>);
}

/** An app's pod as its Deployment states it: memory request and limit, and the environment (NODE_OPTIONS) it runs with. */
export function podShape(app: PlatformApp | 'realtime-gateway'): PodShape {
  const deployment = manifestObjects(`${app}.yaml`).find((object) => object.kind === 'Deployment');
  const container = deployment?.spec.template.spec.containers[0];
  const memory = container?.resources;
  if (!memory?.limits?.memory || !memory?.requests?.memory) throw new Error(`k8s: ${app}'s Deployment has no memory request or limit`);
  const env: Record<string, string> = {};
  for (const variable of container.env ?? []) if (typeof variable.value === 'string') env[variable.name] = variable.value;
  return { memoryRequestBytes: bytesOfQuantity(String(memory.requests.memory)), memoryLimitBytes: bytesOfQuantity(String(memory.limits.memory)), env };
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

interface Startup {
  wallMs: number;
  cpuMs: number;
}

interface SoakResult {
  seconds: number;
  streams: StreamResult[];
  apps: AppMemory[];
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

/**
 * The mixed load, about 100 requests/s in all at BENCH_SOAK_RATE=1: every
 * read and list the bench measures, writes that start background work
 * (operation 2's template submission, a helpdesk domain added and removed),
 * operation 1 (half of them paid connections, whose removal leaves a
 * billing cancellation in core-tenants' outbox), sign-ins (a bcrypt
 * comparison each) and e-mail verifications (a sign-up mail job).
 */
function loadStreams(data: SeededData, apps: RunningApp[], refreshed: string): Stream[] {
  const [core, services, helpdesk] = apps.map((app) => app.url);
  const owner = { authorization: `Bearer ${data.ownerToken}` };
  const json = { 'content-type': 'application/json' };
  const api = `${services}/v1/tenants/${data.tenantID}`;
  const domains = `${helpdesk}/helpdesk/v1/tenants/${data.tenantID}/helpdesk/domains`;
  const plugin = { authorization: data.pluginAuthorization };
  const reported = new Set<string>();
  const status = (url: string, init: RequestInit = {}) =>
    fetch(url, init).then(async (response) => {
      const body = await response.text();
      // The first answer of each refusal, to say why in the run's output.
      const key = `${init.method ?? 'GET'} ${response.status}`;
      if (response.status >= 400) {
        if (!reported.has(key)) process.stderr.write(`memory: ${key} ${new URL(url).pathname}: ${body.slice(0, 300)}\n`);
        reported.add(key);
      }
      return response.status;
    });
  let counter = 0;
  const next = () => (counter += 1);
  const stream = (name: string, perSecond: number, send: Stream['send'], expected?: number[]): Stream => ({ name, perSecond: perSecond * RATE, send, expected });
  return [
    stream('op 14 notifications', 20, () => status(`${api}/notifications`, { headers: owner })),
    stream('op 5 one campaign model', 10, () => status(`${api}/campaigns-models/${data.campaignModelID}`, { headers: owner })),
    stream('op 6 campaign stats', 10, () => status(`${api}/campaigns/stats`, { headers: owner })),
    stream('op 4 campaign models list', 5, () => status(`${api}/campaigns-models?perPage=20`, { headers: owner })),
    stream('op 7 shortcuts list', 5, () => status(`${api}/operators/shortcuts?perPage=20`, { headers: owner })),
    stream('op 11 contact sessions list', 5, () => status(`${api}/contacts/${data.contactID}/sessions?perPage=20`, { headers: owner })),
    stream('op 2 create a campaign model (template submission)', 2, () =>
      status(`${api}/campaigns-models`, {
        method: 'POST',
        headers: { ...owner, ...json, 'idempotency-key': randomUUID() },
        body: JSON.stringify(campaignModelBody(data.channelID, `bench model ${process.pid} ${next()}`)),
      }),
    ),
    stream('op 8 e-mail verification (sign-up mail job)', 3, () =>
      status(`${services}/v1/operators/email-verification`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ operatorEmail: `soak-${process.pid}-${next()}@${DOMAIN}`, operatorFirstname: 'Bench' }),
      }),
    ),
    stream('op 1 delete a connection (transport; half paid: billing outbox)', 3, () => {
      const path = data.connectionPaths.pop();
      if (!path) return Promise.reject(new Error('out of seeded connections'));
      return status(`${services}${path}`, { method: 'DELETE', headers: { authorization: `Bearer ${data.removerToken}` } });
    }),
    stream('op 15 GET /tenants', 10, () => status(`${core}/tenants`, { headers: owner })),
    stream('sign-in (bcrypt)', 1, () => {
      const operator = data.signInOperators[next() % data.signInOperators.length];
      return status(`${core}/v1/operators/sign-in`, { method: 'POST', headers: json, body: JSON.stringify({ operatorEmail: operator.email, password: operator.password }) });
    }),
    stream('helpdesk domains list', 10, () => status(domains, { headers: plugin })),
    stream('op 12 refresh (throttled after the first)', 10, () => status(`${domains}/${refreshed}/refresh`, { method: 'POST', headers: plugin }), [200, 429]),
    stream('helpdesk add then remove a domain', 1, async () => {
      const hostname = `soak-${process.pid}-${next()}.${DOMAIN}`;
      const added = await status(domains, { method: 'POST', headers: { ...plugin, ...json, 'idempotency-key': randomUUID() }, body: JSON.stringify({ domainHostname: hostname }) });
      return [added, await status(`${domains}/${hostname}`, { method: 'DELETE', headers: plugin })];
    }),
  ];
}

/** Adds a helpdesk domain through the API (so the provider knows it) and answers its hostname. */
async function addDomain(data: SeededData, helpdesk: string, hostname: string): Promise<string> {
  const response = await fetch(`${helpdesk}/helpdesk/v1/tenants/${data.tenantID}/helpdesk/domains`, {
    method: 'POST',
    headers: { authorization: data.pluginAuthorization, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ domainHostname: hostname }),
  });
  if (response.status !== 201) throw new Error(`adding ${hostname}: HTTP ${response.status} ${await response.text()}`);
  return hostname;
}

function campaignModelBody(channelID: string, name: string): Record<string, unknown> {
  return {
    campaignModelChannel: 'whatsapp',
    campaignModelChannelID: channelID,
    campaignModelName: name,
    campaignModelType: 'UTILITY',
    campaignModelGatewayMeta: { language: 'pt_BR' },
    campaignModelSlots: {
      body: {
        content: '<p>Olá {{customer_name}}</p>',
        text: 'Olá {{customer_name}}, seu pedido {{order_id}} foi enviado.',
        variables: [
          { id: 'b1', key: 'customer_name', type: 'text', fallback: 'cliente' },
          { id: 'b2', key: 'order_id', type: 'text', fallback: '' },
        ],
      },
    },
  };
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
const mib = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : '–');
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

function printStartups(times: Map<PlatformApp, Startup[]>): void {
  const lines = [
    `\nStart to /health/ready 200 (built, plain node ${benchNodeVersion()}, no migrations, in the pod's memory limit; ${STARTUP_RUNS} starts each; CPU: the process's user + system time until then)`,
    '| app | median | min | max | every start | CPU until ready, median | target ≤ 1,500 ms |',
    '|---|---:|---:|---:|---|---:|---|',
    ...[...times].map(([name, runs]) => {
      const wall = runs.map((run) => run.wallMs).sort((a, b) => a - b);
      const median = percentiles(wall).p50;
      const cpu = percentiles(runs.map((run) => run.cpuMs)).p50;
      return `| ${name} | ${median} ms | ${wall[0]} ms | ${wall.at(-1)} ms | ${runs.map((run) => run.wallMs).join(', ')} | ${cpu} ms | ${median <= 1500 ? 'met' : 'NOT MET'} |`;
    }),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

function printSoak(limited: SoakResult, unlimited: SoakResult): void {
  const lines = [
    `\nMemory under the pods' limits: ${limited.seconds} s of the mixed load (RSS from /proc; growth: least-squares line through the last ${limited.seconds / 2} s)`,
    '| app | limit | RSS idle | RSS peak | peak / limit (≤ 60%) | RSS at the end | growth over the last half (≤ 5%) | cgroup peak (RSS + cache) | GC: pauses, total | limit hits | OOM kills |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...limited.apps.map((app) => {
      const share = app.peakMiB / (app.limitMiB as number);
      const gcShare = app.gc.seconds / limited.seconds;
      return (
        `| ${app.name} | ${app.limitMiB} MiB | ${mib(app.idleMiB)} MiB | ${mib(app.peakMiB)} MiB | ${percent(share)} ${share <= TARGETS.peakShareOfLimit ? 'met' : 'NOT MET'} | ${mib(app.endMiB)} MiB | ` +
        `${percent(app.growthLastHalf)} ${app.growthLastHalf <= TARGETS.growthOverLastHalf ? 'met' : 'NOT MET'} | ${mib(app.cgroupPeakMiB)} MiB | ` +
        `${app.gc.count}, ${(app.gc.seconds * 1000).toFixed(0)} ms (${percent(gcShare)} of the time) | ${app.failCount} | ${app.oomKills}${app.exit ? ` (${app.exit})` : ''} |`
      );
    }),
    `\nThe same load without limits, ${unlimited.seconds} s`,
    '| app | RSS idle | RSS peak | RSS at the end | GC: pauses, total |',
    '|---|---:|---:|---:|---:|',
    ...unlimited.apps.map((app) => `| ${app.name} | ${mib(app.idleMiB)} MiB | ${mib(app.peakMiB)} MiB | ${mib(app.endMiB)} MiB | ${app.gc.count}, ${(app.gc.seconds * 1000).toFixed(0)} ms |`),
    `\nLatency of each stream of the load, limited against unlimited`,
    '| stream | rate | sent (limited) | p50 limited | p99 limited | p99 unlimited | unexpected answers (limited / unlimited) |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...limited.streams.map((stream, index) => {
      const reference = unlimited.streams[index];
      const why = [stream.firstUnexpected, reference.firstUnexpected].filter(Boolean).join('; ');
      return `| ${stream.name} | ${(stream.sent / limited.seconds).toFixed(1)}/s | ${stream.sent} | ${stream.p50Ms} ms | ${stream.p99Ms} ms | ${reference.p99Ms} ms | ${stream.unexpected} / ${reference.unexpected}${why ? ` (${why})` : ''} |`;
    }),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

interface SeededData {
  tenantID: string;
  ownerToken: string;
  removerToken: string;
  campaignModelID: string;
  channelID: string;
  contactID: string;
  connectionPaths: string[];
  pluginAuthorization: string;
  signInOperators: { email: string; password: string }[];
}

/**
 * One tenant with full pages of every list, the helpdesk plugin with one
 * domain, operators to sign in, and enough connections for operation 1 over
 * both runs: half plain, half paid (each with a subscription item at the
 * billing stub), each in a tenant of its own owned by another operator.
 */
async function seed(dataSource: DataSource, billing: BillingStub, coreConfig: CoreTenantsConfig): Promise<SeededData> {
  const fixtures = new FixtureBuilder(dataSource);
  const campaigns = new CampaignFixtures(dataSource);
  const conversations = new ConversationFixtures(dataSource);
  const tenantID = await fixtures.tenant('Bench Atendimento');
  const owner = await fixtures.operator();
  await fixtures.membership(tenantID, owner.operatorID, 'owner');
  for (let index = 1; index < 5; index += 1) await fixtures.membership(await fixtures.tenant(`Bench tenant ${index}`), owner.operatorID, 'member');

  const channel = await campaigns.messagingChannel(tenantID);
  await campaigns.campaignModels(tenantID, channel.channelID, ROWS, { prefix: 'order_update' });
  const [{ id: campaignModelID }]: { id: string }[] = await dataSource.query('SELECT id FROM campaign_models WHERE tenant_id = $1 LIMIT 1', [tenantID]);
  for (const status of ['draft', 'scheduled', 'running', 'completed'] as const) await campaigns.campaign(tenantID, status, campaignModelID);

  const inboxID = await conversations.inbox(tenantID);
  const contactID = await conversations.contact(tenantID);
  for (let index = 0; index < ROWS; index += 1) {
    await conversations.shortcut(tenantID, { scope: index % 2 ? 'tenant-based' : 'user-based', operatorID: owner.operatorID, bang: `/resposta${index}`, preview: `Resposta pronta ${index}` });
    const sessionID = await conversations.session(tenantID, { contactID, inboxID, operatorID: owner.operatorID, createdAt: new Date(Date.now() - index * 60_000) });
    await conversations.message(tenantID, sessionID, { value: `Mensagem ${index}` });
    if (index < 10) await conversations.notification(tenantID, { operatorID: owner.operatorID, ...(index % 2 ? { category: 'inbox', inboxID } : { category: 'mention' }) });
  }

  const helpdesk = await fixtures.pluginWithUrn('urn:plugin:helpdesk', 'Central de Ajuda');
  await fixtures.connection(tenantID, helpdesk.pluginID);
  await dataSource.query('INSERT INTO help_centers (tenant_id) VALUES ($1)', [tenantID]);

  const signInOperators: { email: string; password: string }[] = [];
  for (let index = 0; index < SIGN_IN_OPERATORS; index += 1) signInOperators.push(await fixtures.operator({ email: `sign-in-${index}@${DOMAIN}`, password: 'correct horse battery staple' }));

  // Operation 1 at its rate over both runs, and a margin.
  const connectionCount = Math.ceil(3 * RATE * (SOAK_SECONDS + UNLIMITED_SECONDS) * 1.1) + 20;
  const remover = await fixtures.operator();
  const plain = await fixtures.plugin();
  const paid = await fixtures.plugin({ kind: 'paid' });
  const items = Array.from({ length: connectionCount }, (_, index) => (index % 2 ? `si_bench_${index}` : null));
  for (const item of items) if (item) billing.addItem(item);
  const connections: { id: string; tenant_id: string }[] = await dataSource.query(
    `WITH made AS (
       INSERT INTO tenants (name, billing_subscription_id) SELECT 'Bench connection tenant ' || g, 'sub_bench' FROM generate_series(1, $1::int) g RETURNING id
     ), numbered AS (
       SELECT id, row_number() OVER () - 1 AS n FROM made
     ), owned AS (
       INSERT INTO memberships (tenant_id, operator_id, role) SELECT id, $2, 'owner' FROM made
     )
     INSERT INTO plugin_connections (tenant_id, plugin_id, kind, token_hash, subscription_item_id)
     SELECT id, CASE WHEN n % 2 = 1 THEN $4::uuid ELSE $3::uuid END, CASE WHEN n % 2 = 1 THEN 'paid' ELSE 'plain' END,
            'not-a-token-hash', CASE WHEN n % 2 = 1 THEN 'si_bench_' || n END
       FROM numbered RETURNING id, tenant_id`,
    [connectionCount, remover.operatorID, plain.pluginID, paid.pluginID],
  );
  const { token } = await issueOperatorToken(coreConfig, owner.operatorID);
  const { token: removerToken } = await issueOperatorToken(coreConfig, remover.operatorID);
  return {
    tenantID,
    ownerToken: token,
    removerToken,
    campaignModelID,
    channelID: channel.channelID,
    contactID,
    connectionPaths: connections.map((connection) => `/v1/tenants/${connection.tenant_id}/plugins/connections/${connection.id}`),
    pluginAuthorization: helpdesk.authorization,
    signInOperators,
  };
}
