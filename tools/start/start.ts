import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { CoreTenantsConfig } from '@apps/core-tenants';
import { ensureReachable, exitOnStartupFailure, loadConfig, postgresDependency, redisDependency } from '@platform/config';
import { createDataSource, runMigrations } from '@platform/database';
import { DataSource } from 'typeorm';
import { DemoFixture, refreshDemoTokens, seedDemo } from '../demo/demo-fixture';
import { ensureDatabaseExists } from '../support/ensure-database';
import { startProviderSandbox } from '../sandbox/provider-sandbox';
import { loadLocalEnvironment } from '../support/env-file';
import { LocalServices, startLocalServices } from '../support/local-services';
import { MailSink, startMailSink } from './mail-sink';

/**
 * `npm start`: applies migrations, then runs the four apps and the operator console (each its own
 * process, as in production) until stopped, seeding the demo data once and
 * printing tokens issued at this start. With DATABASE_URL or REDIS_URL unset
 * it runs an embedded PostgreSQL or a Redis-compatible server itself
 * (support/local-services.ts). Without SMTP_URL it also runs a local mail
 * sink with a viewer, and points services-api at it.
 *
 * Quiet by default: the terminal gets the start's own lines and a short
 * summary, and each app's log goes to `.data/logs/<app>.log`, its warnings
 * and errors also to the terminal; START_LOGS=all streams every line of the
 * apps to the terminal instead. Ctrl+C stops the apps first (their job
 * workers with them), then the mail sink and the embedded services.
 */
const APPS = [
  { name: 'core-tenants', portVariable: 'CORE_TENANTS_PORT', defaultPort: 3002, entry: 'dist/apps/core-tenants/src/main.js' },
  { name: 'services-api', portVariable: 'SERVICES_API_PORT', defaultPort: 3000, entry: 'dist/apps/services-api/src/main.js' },
  { name: 'plugins-helpdesk', portVariable: 'PLUGINS_HELPDESK_PORT', defaultPort: 3001, entry: 'dist/apps/plugins-helpdesk/src/main.js' },
  { name: 'realtime-gateway', portVariable: 'REALTIME_GATEWAY_PORT', defaultPort: 3003, entry: 'dist/apps/realtime-gateway/src/main.js' },
  // The operator console's static server (the assets `npm run build:console` wrote), once the APIs answer.
  { name: 'operator-console', portVariable: 'CONSOLE_PORT', defaultPort: 3004, entry: 'dist/apps/operator-console/server/main.js' },
] as const;

const DEMO_FIXTURE_FILE = '.data/demo-fixture.json';
const LOG_DIR = '.data/logs';
const READY_TIMEOUT_MS = 60_000;
/** Past each app's own shutdown budget (SHUTDOWN_TIMEOUT_MS), an app still running is killed. */
const STOP_TIMEOUT_MS = Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 10_000) + 10_000;
/** Set in the supervising process (see superviseDetached). */
const SUPERVISED = 'PLATFORM_START_SUPERVISED';
/** pino's warn level: lines at it or above reach the terminal. */
const WARN_LEVEL = 40;

const say = (line: string) => process.stderr.write(`[start] ${line}\n`);
const children: ChildProcess[] = [];
let mailSink: MailSink | undefined;
let localServices: LocalServices | undefined;
let stopping = false;

function portOf(app: (typeof APPS)[number]): number {
  return Number(process.env[app.portVariable] ?? app.defaultPort);
}

const appNamed = (name: (typeof APPS)[number]['name']) => APPS.find((app) => app.name === name) as (typeof APPS)[number];

/**
 * The console in the browser calls the APIs and the gateway from its own
 * origin: those must allow it (CORS_ALLOWED_ORIGINS, kept as configured and
 * completed with the console's origins), and the console must know where they
 * are (CONSOLE_*, unless set).
 */
function configureConsole(): void {
  const port = portOf(appNamed('operator-console'));
  const origins = (process.env.CORS_ALLOWED_ORIGINS ?? '').split(',').map((origin) => origin.trim()).filter(Boolean);
  for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) if (!origins.includes(origin)) origins.push(origin);
  process.env.CORS_ALLOWED_ORIGINS = origins.join(',');
  process.env.CONSOLE_HOST ??= '127.0.0.1';
  process.env.CONSOLE_SERVICES_API_URL ??= `http://127.0.0.1:${portOf(appNamed('services-api'))}`;
  process.env.CONSOLE_CORE_TENANTS_URL ??= `http://127.0.0.1:${portOf(appNamed('core-tenants'))}`;
  process.env.CONSOLE_REALTIME_GATEWAY_URL ??= `ws://127.0.0.1:${portOf(appNamed('realtime-gateway'))}`;
}

const streamAllLogs = () => process.env.START_LOGS === 'all';

/**
 * An app's output into its log file, and to the terminal what a developer
 * must see: lines at warn level or above, and anything that is not a log
 * line (a crash's stack trace).
 */
function routeOutput(app: (typeof APPS)[number], child: ChildProcess): void {
  mkdirSync(LOG_DIR, { recursive: true });
  const file = createWriteStream(`${LOG_DIR}/${app.name}.log`, { flags: 'w' });
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      file.write(`${line}\n`);
      const level = /^\{"level":(\d+)/.exec(line)?.[1];
      if (level === undefined) process.stderr.write(`[${app.name}] ${line}\n`);
      else if (Number(level) >= WARN_LEVEL) process.stderr.write(`${line}\n`);
    });
  }
  child.once('exit', () => file.end());
}

function launch(app: (typeof APPS)[number]): ChildProcess {
  const child = spawn(process.execPath, ['--enable-source-maps', app.entry], {
    stdio: streamAllLogs() ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    env: process.env,
  });
  if (!streamAllLogs()) routeOutput(app, child);
  child.on('exit', (code, signal) => {
    if (stopping) return;
    say(`${app.name} exited (${signal ?? code}); stopping the others`);
    stop(1);
  });
  children.push(child);
  return child;
}

async function waitUntilReady(app: (typeof APPS)[number]): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const ready = await fetch(`http://127.0.0.1:${portOf(app)}/health/ready`).then((response) => response.ok, () => false);
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${app.name} was not ready within ${READY_TIMEOUT_MS / 1000} s`);
}

/** Resolves when the app has exited; past STOP_TIMEOUT_MS it is killed. */
function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
  });
}

/**
 * Stops everything started, in order, then exits; with a failure, exits by
 * logging it (one JSON line). The apps first: each finishes its requests and
 * stops its job workers while PostgreSQL and Redis still answer, so no worker
 * sees its database go away. Then the mail sink and the embedded services.
 */
function stop(exitCode: number, failure?: unknown): void {
  if (stopping) return;
  stopping = true;
  if (children.length > 0 && failure === undefined) say('stopping the apps, then the embedded services');
  for (const child of children) child.kill('SIGTERM');
  Promise.all(children.map(exited))
    .then(() => mailSink?.close())
    .then(() => localServices?.stop())
    .then(() => {
      if (failure !== undefined) return exitOnStartupFailure(failure, 'start');
      if (children.length > 0) say('stopped');
      process.exit(exitCode);
    });
}

/** The fixture seeded by an earlier start, if its data is still in this database. */
async function storedFixture(dataSource: DataSource): Promise<DemoFixture | undefined> {
  if (!existsSync(DEMO_FIXTURE_FILE)) return undefined;
  const fixture = JSON.parse(readFileSync(DEMO_FIXTURE_FILE, 'utf8')) as DemoFixture;
  const found: unknown[] = await dataSource.query('SELECT 1 FROM tenants WHERE id = $1', [fixture.tenantID]);
  return found.length > 0 ? fixture : undefined;
}

/** Seeds the demo data once per database; every start gives its operators tokens valid from now. */
async function demoFixture(): Promise<DemoFixture> {
  const config = loadConfig(CoreTenantsConfig);
  const dataSource = createDataSource({ url: config.DATABASE_URL, poolSize: 2, applicationName: 'demo-seed' });
  await dataSource.initialize();
  try {
    const stored = await storedFixture(dataSource);
    const fixture = stored ? await refreshDemoTokens(stored, config) : await seedDemo(dataSource, config, (step) => say(`seeding the demo data: ${step}`));
    mkdirSync('.data', { recursive: true });
    writeFileSync(DEMO_FIXTURE_FILE, `${JSON.stringify(fixture, null, 2)}\n`);
    return fixture;
  } finally {
    await dataSource.destroy();
  }
}

async function main(): Promise<void> {
  const envFile = loadLocalEnvironment();
  say(`configuration from ${envFile ?? 'the environment'}`);
  const startedAt = Date.now();
  // What is configured must answer; what is not is run here.
  const { DATABASE_URL: databaseConfigured, REDIS_URL: redisConfigured } = process.env;
  await ensureReachable([
    ...(databaseConfigured ? [postgresDependency(databaseConfigured)] : []),
    ...(redisConfigured ? [redisDependency(redisConfigured)] : []),
  ]);
  localServices = await startLocalServices();
  for (const line of localServices.lines) say(line);
  const databaseUrl = process.env.DATABASE_URL as string;
  await ensureDatabaseExists(databaseUrl);
  const applied = await runMigrations(databaseUrl, (line) => say(`migration ${line}`));
  say(applied.length ? `${applied.length} migrations applied` : 'database schema up to date');

  // Providers whose URL points at a loopback port are played by the sandbox, in this process.
  const sandbox = process.env.PROVIDER_SANDBOX === 'off' ? undefined : await startProviderSandbox(process.env);
  if (sandbox?.lines.length) say(`provider sandbox: ${sandbox.lines.length} providers on loopback, at the URLs of ${envFile ?? 'the environment'} (PROVIDER_SANDBOX=off turns it off)`);
  if (!process.env.SMTP_URL) {
    mailSink = await startMailSink(Number(process.env.MAIL_SINK_SMTP_PORT ?? 1025), Number(process.env.MAIL_SINK_HTTP_PORT ?? 1080));
    process.env.SMTP_URL = mailSink.smtpUrl;
    say(`no SMTP_URL: mails go to the local sink ${mailSink.smtpUrl}`);
  }

  configureConsole();
  process.once('SIGINT', () => stop(0));
  process.once('SIGTERM', () => stop(0));
  process.once('SIGHUP', () => stop(0));
  say(streamAllLogs() ? 'starting the apps (START_LOGS=all: every log line follows)' : `starting the apps (their logs: ${LOG_DIR}/<app>.log; warnings and errors also here)`);
  // The three APIs at once: the others fetch core-tenants' JWKS when the first token
  // arrives, not at boot, and no request comes before all three are ready. The
  // real-time gateway after them, so it never slows their boot on a small machine.
  const apis = APPS.filter((app) => app.name !== 'realtime-gateway' && app.name !== 'operator-console');
  const afterThem = APPS.filter((app) => app.name === 'realtime-gateway' || app.name === 'operator-console');
  for (const app of apis) launch(app);
  await Promise.all(apis.map(waitUntilReady));
  for (const app of afterThem) launch(app);
  await Promise.all(afterThem.map(waitUntilReady));

  const fixture = await demoFixture();
  printSummary(fixture, (Date.now() - startedAt) / 1000, localServices.postgresInitialised);
}

/** The few lines a developer needs: where each thing is, how to sign in, where the logs and the rest are. */
function printSummary(fixture: DemoFixture, readySeconds: number, postgresCreated: boolean): void {
  const ttlMinutes = Math.round(Number(process.env.OPERATOR_JWT_TTL_SECONDS ?? 3600) / 60);
  const { owner, member, outsider } = fixture.operators;
  const lines = [
    `all apps ready ${readySeconds.toFixed(1)} s after the start${postgresCreated ? ' (the embedded PostgreSQL was created first)' : ''}:`,
    ...APPS.map((app) =>
      app.name === 'realtime-gateway'
        ? `  ${app.name.padEnd(17)} ws://127.0.0.1:${portOf(app)}/v1/realtime  (docs/realtime.md)`
        : app.name === 'operator-console'
          ? `  ${app.name.padEnd(17)} http://127.0.0.1:${portOf(app)}  (sign in as below; \`npm run demo:chat\` shows a conversation arriving, docs/console.md)`
          : `  ${app.name.padEnd(17)} http://127.0.0.1:${portOf(app)}  (reference: /docs, OpenAPI: /openapi.json)`,
    ),
    ...(mailSink ? [`  ${'mail sink'.padEnd(17)} ${mailSink.viewerUrl}  (every mail the platform sends, e.g. sign-up codes)`] : []),
    `demo sign-in: ${owner.email} (owner), ${member.email} (member), ${outsider.email} (outsider); password ${owner.password}`,
    `owner token (issued now, valid ${ttlMinutes} min; each start issues new ones): ${owner.token}`,
    `every ID and token of the demo data: ${DEMO_FIXTURE_FILE}`,
    streamAllLogs() ? "apps' logs: above (START_LOGS=all)" : `apps' logs: ${APPS.map((app) => `${LOG_DIR}/${app.name}.log`).join(', ')} (START_LOGS=all streams them here)`,
    'Ctrl+C stops everything',
  ];
  for (const line of lines) say(line);
}

/**
 * Runs the start in a process group and session of its own, and passes it one
 * SIGTERM when this process is asked to stop. Ctrl+C signals every process of
 * the terminal's foreground group: without this, the apps and the embedded
 * PostgreSQL would all get it at once, and PostgreSQL would close its
 * connections while the apps' job workers still use them. This way only
 * `stop` decides the order.
 */
function superviseDetached(): void {
  const supervisor = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    detached: true,
    env: { ...process.env, [SUPERVISED]: '1' },
  });
  let forwarded = false;
  const forward = () => {
    if (forwarded) return;
    forwarded = true;
    supervisor.kill('SIGTERM');
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, forward);
  supervisor.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (process.env[SUPERVISED]) {
  delete process.env[SUPERVISED];
  main().catch((error: unknown) => stop(1, error));
}
else superviseDetached();
