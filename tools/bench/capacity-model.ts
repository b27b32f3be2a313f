import { readFileSync } from 'node:fs';
import { hashPassword } from '@platform/auth';

/**
 * `npm run --silent capacity -- BENCH_OUTPUT`: the capacity model of
 * docs/scaling.md, printed from the output of `npm run bench -- cpu-per-request`
 * (its CPU-per-request and footprint tables) and from k8s/base/, production's sizes (each app's CPU
 * request, the HPA's target, the pool sizes). Change the code, re-run the
 * bench, and the model follows.
 */

/** The load the model is sized for. Environment variables override it. */
const LOAD = {
  operatorsOnline: Number(process.env.LOAD_OPERATORS ?? 2_000),
  listRequestsPerSecond: Number(process.env.LOAD_LIST_RPS ?? 50),
  signUpsPerMinute: Number(process.env.LOAD_SIGN_UPS_PER_MINUTE ?? 5),
};

/** What one online operator's front end sends: the unread counts every 30 s, the tenant list every 10 minutes. */
const NOTIFICATION_POLL_SECONDS = 30;
const TENANT_LIST_SECONDS = 600;
/** How list traffic splits over the lists (by their bench row names). */
const LIST_MIX: [string, number][] = [
  ['op 11 contact sessions', 0.5],
  ['op 7 shortcuts', 0.3],
  ['op 4 campaign models', 0.2],
];

interface AppShape {
  cpuRequestMillicores: number;
  cpuLimitMillicores: number;
  poolSize: number;
  /** pg-boss's own pool (services-api only). */
  extraConnections: number;
  minReplicas: number;
}

interface Measured {
  cpuMicroseconds: number;
  transactions: number;
  statements: number;
  transactionMs: number;
  redisCommands: number;
  transportMessages: number;
}

interface Demand {
  name: string;
  perSecond: number;
  /** Share of the CPU per app (operation 1 runs in services-api and core-tenants). */
  apps: Partial<Record<AppName, number>>;
  measured: Measured;
}

type AppName = 'services-api' | 'core-tenants' | 'plugins-helpdesk';
const APPS: AppName[] = ['services-api', 'core-tenants', 'plugins-helpdesk'];
/** The HPA's averageUtilization: pods are added above this share of the CPU request. */
const TARGET_UTILISATION = Number(readK8s('services-api').match(/averageUtilization:\s*(\d+)/)?.[1] ?? 70) / 100;

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error('usage: capacity-model.js BENCH_OUTPUT (the output of `npm run bench -- cpu-per-request`)');
  const measured = parseBenchOutput(readFileSync(file, 'utf8'));
  const row = (prefix: string) => {
    const found = [...measured].find(([name]) => name.startsWith(prefix));
    if (!found) throw new Error(`the bench output has no row "${prefix}..."`);
    return found[1];
  };
  const signUp = await measureSignUp();

  const demands: Demand[] = [
    { name: 'op 14 notifications', perSecond: LOAD.operatorsOnline / NOTIFICATION_POLL_SECONDS, apps: { 'services-api': 1 }, measured: row('op 14') },
    { name: 'op 15 GET /tenants', perSecond: LOAD.operatorsOnline / TENANT_LIST_SECONDS, apps: { 'core-tenants': 1 }, measured: row('op 15') },
    ...LIST_MIX.map(([name, share]) => ({ name, perSecond: LOAD.listRequestsPerSecond * share, apps: { 'services-api': 1 }, measured: row(name) })),
    { name: 'sign-up (a password hash, measured here)', perSecond: LOAD.signUpsPerMinute / 60, apps: { 'services-api': 1 }, measured: signUp },
  ];

  const say = (line = '') => process.stdout.write(`${line}\n`);
  say(`Load: ${LOAD.operatorsOnline.toLocaleString('en')} operators online (unread counts every ${NOTIFICATION_POLL_SECONDS} s, tenant list every ${TENANT_LIST_SECONDS / 60} min), ` +
    `${LOAD.listRequestsPerSecond} list requests/s (${LIST_MIX.map(([name, share]) => `${Math.round(share * 100)}% ${name.split(' ').slice(0, 2).join(' ')}`).join(', ')}), ${LOAD.signUpsPerMinute} sign-ups/min`);
  say();
  say('| operation | req/s | CPU per request | PostgreSQL transactions / statements per request | server-connection ms per request | Redis commands per request | transport messages per request |');
  say('|---|---:|---:|---:|---:|---:|---:|');
  for (const demand of demands) {
    const m = demand.measured;
    say(`| ${demand.name} | ${demand.perSecond.toFixed(1)} | ${Math.round(m.cpuMicroseconds).toLocaleString('en')} µs | ${m.transactions.toFixed(2)} / ${m.statements.toFixed(2)} | ${m.transactionMs.toFixed(3)} | ${m.redisCommands.toFixed(2)} | ${m.transportMessages.toFixed(2)} |`);
  }

  say();
  say(`| app | CPU request / limit | requests/s per pod at ${Math.round(TARGET_UTILISATION * 100)}% of the request (its mix) | at the limit | CPU needed | pods | client connections (pods x pool) |`);
  say('|---|---:|---:|---:|---:|---:|---:|');
  let clientConnections = 0;
  for (const app of APPS) {
    const shape = appShape(app);
    const mine = demands.filter((demand) => demand.apps[app]);
    const cpuSeconds = mine.reduce((sum, demand) => sum + (demand.perSecond * demand.measured.cpuMicroseconds * (demand.apps[app] ?? 0)) / 1e6, 0);
    const requests = mine.reduce((sum, demand) => sum + demand.perSecond, 0);
    const budget = (shape.cpuRequestMillicores / 1000) * TARGET_UTILISATION;
    const perPod = cpuSeconds > 0 ? (budget * requests) / cpuSeconds : Infinity;
    // One Node.js process runs requests on one thread: above one core the limit buys nothing.
    const atLimit = cpuSeconds > 0 ? (Math.min(1, shape.cpuLimitMillicores / 1000) * requests) / cpuSeconds : Infinity;
    const rate = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en') : 'no load');
    const pods = Math.max(shape.minReplicas, Math.ceil(cpuSeconds / budget));
    clientConnections += pods * (shape.poolSize + shape.extraConnections);
    say(`| ${app} | ${shape.cpuRequestMillicores}m / ${shape.cpuLimitMillicores}m | ${rate(perPod)} | ${rate(atLimit)} | ${cpuSeconds.toFixed(2)} cores | ${pods} (HPA minimum ${shape.minReplicas}) | ${pods * (shape.poolSize + shape.extraConnections)} |`);
  }

  const total = (pick: (m: Measured) => number) => demands.reduce((sum, demand) => sum + demand.perSecond * pick(demand.measured), 0);
  // Little's law: busy server connections = arrival rate x time each request holds one.
  const busyServerConnections = total((m) => m.transactionMs / 1000);
  say();
  say('| resource | need |');
  say('|---|---:|');
  say(`| PostgreSQL transactions/s | ${Math.round(total((m) => m.transactions)).toLocaleString('en')} |`);
  say(`| PostgreSQL statements/s | ${Math.round(total((m) => m.statements)).toLocaleString('en')} |`);
  say(`| PostgreSQL server connections busy on average (transactions/s x time each) | ${busyServerConnections.toFixed(1)} |`);
  say(`| PgBouncer default_pool_size (4 x the average, at least 10, for bursts) | ${Math.max(10, Math.ceil(busyServerConnections * 4))} |`);
  say(`| client connections to PgBouncer (all pods) | ${clientConnections} |`);
  say(`| client connections straight to PostgreSQL without PgBouncer, at the HPA maximum | ${APPS.reduce((sum, app) => sum + maxReplicasOf(app) * (appShape(app).poolSize + appShape(app).extraConnections), 0)} |`);
  say(`| Redis commands/s | ${Math.round(total((m) => m.redisCommands)).toLocaleString('en')} |`);
  say(`| transport messages/s (each delivered to every core-tenants replica) | ${total((m) => m.transportMessages).toFixed(1)} |`);
}

/** The CPU and footprint tables of the bench output, by row name. */
function parseBenchOutput(text: string): Map<string, Measured> {
  const cpu = new Map<string, number>();
  const footprint = new Map<string, number[]>();
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 4 || !cells[1] || cells[1].startsWith('-')) continue;
    const micros = cells[2].match(/^([\d,]+) µs$/);
    if (micros) cpu.set(cells[1], Number(micros[1].replace(/,/g, '')));
    else if (cells.length === 8 && cells.slice(2, 7).every((cell) => /^[\d.]+$/.test(cell))) footprint.set(cells[1], cells.slice(2, 7).map(Number));
  }
  const measured = new Map<string, Measured>();
  for (const [name, cpuMicroseconds] of cpu) {
    const f = footprint.get(name);
    if (!f) continue;
    measured.set(name, { cpuMicroseconds, transactions: f[0], statements: f[1], transactionMs: f[2], redisCommands: f[3], transportMessages: f[4] });
  }
  if (!measured.size) throw new Error('no CPU-per-request and footprint rows found: pass the output of `npm run bench -- cpu-per-request`');
  return measured;
}

/** A sign-up is dominated by hashing the password; the bench has no sign-up row, so it is timed here. */
async function measureSignUp(): Promise<Measured> {
  const started = process.cpuUsage();
  const hashes = 5;
  for (let index = 0; index < hashes; index += 1) await hashPassword(`capacity-model-${index}`);
  const used = process.cpuUsage(started);
  // Its database and Redis work (a handful of statements and commands) is negligible at a few a minute.
  return { cpuMicroseconds: (used.user + used.system) / hashes, transactions: 0, statements: 0, transactionMs: 0, redisCommands: 0, transportMessages: 0 };
}

function readK8s(app: AppName): string {
  return readFileSync(`k8s/base/${app}.yaml`, 'utf8');
}

function millicores(value: string): number {
  return value.endsWith('m') ? Number(value.slice(0, -1)) : Number(value.replace(/"/g, '')) * 1000;
}

function appShape(app: AppName): AppShape {
  const manifest = readK8s(app);
  const request = manifest.match(/requests:\s*\n\s*cpu:\s*"?([\d.]+m?)"?/)?.[1];
  const limit = manifest.match(/limits:\s*\n\s*cpu:\s*"?([\d.]+m?)"?/)?.[1];
  const config = readFileSync('k8s/base/configmap.yaml', 'utf8');
  if (!request || !limit) throw new Error(`k8s/base/${app}.yaml: no CPU request or limit`);
  return {
    cpuRequestMillicores: millicores(request),
    cpuLimitMillicores: millicores(limit),
    poolSize: Number(config.match(/DATABASE_POOL_SIZE:\s*"(\d+)"/)?.[1] ?? 10),
    extraConnections: app === 'services-api' ? 2 : 0,
    minReplicas: Number(manifest.match(/minReplicas:\s*(\d+)/)?.[1] ?? 1),
  };
}

function maxReplicasOf(app: AppName): number {
  return Number(readK8s(app).match(/maxReplicas:\s*(\d+)/)?.[1] ?? 1);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
