import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
 * `npm start`: applies migrations, then runs the four apps (each its own
 * process, as in production) until stopped, seeding the demo data once and
 * printing tokens issued at this start. With DATABASE_URL or REDIS_URL unset
 * it runs an embedded PostgreSQL or a Redis-compatible server itself
 * (support/local-services.ts). Without SMTP_URL it also runs a local mail
 * sink with a viewer, and points services-api at it.
 */
const APPS = [
  { name: 'core-tenants', portVariable: 'CORE_TENANTS_PORT', defaultPort: 3002 },
  { name: 'services-api', portVariable: 'SERVICES_API_PORT', defaultPort: 3000 },
  { name: 'plugins-helpdesk', portVariable: 'PLUGINS_HELPDESK_PORT', defaultPort: 3001 },
  { name: 'realtime-gateway', portVariable: 'REALTIME_GATEWAY_PORT', defaultPort: 3003 },
] as const;

const DEMO_FIXTURE_FILE = '.data/demo-fixture.json';
const READY_TIMEOUT_MS = 60_000;

const say = (line: string) => process.stderr.write(`[start] ${line}\n`);
const children: ChildProcess[] = [];
let mailSink: MailSink | undefined;
let localServices: LocalServices | undefined;
let stopping = false;

function portOf(app: (typeof APPS)[number]): number {
  return Number(process.env[app.portVariable] ?? app.defaultPort);
}

function launch(app: (typeof APPS)[number]): ChildProcess {
  const child = spawn(process.execPath, ['--enable-source-maps', `dist/apps/${app.name}/src/main.js`], { stdio: 'inherit', env: process.env });
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

/** Stops everything started, then exits; with a failure, exits by logging it (one JSON line). */
function stop(exitCode: number, failure?: unknown): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  // A child may be gone already, by a code or by the signal it shares with this process (Ctrl+C).
  const gone = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;
  Promise.all(children.map((child) => new Promise((resolve) => (gone(child) ? resolve(null) : child.once('exit', resolve)))))
    .then(() => mailSink?.close())
    .then(() => localServices?.stop())
    .then(() => (failure === undefined ? process.exit(exitCode) : exitOnStartupFailure(failure, 'start')));
}

/** The fixture seeded by an earlier start, if its data is still in this database. */
async function storedFixture(dataSource: DataSource): Promise<DemoFixture | undefined> {
  if (!existsSync(DEMO_FIXTURE_FILE)) return undefined;
  const fixture = JSON.parse(readFileSync(DEMO_FIXTURE_FILE, 'utf8')) as DemoFixture;
  const found: unknown[] = await dataSource.query('SELECT 1 FROM tenants WHERE id = $1', [fixture.tenantID]);
  return found.length > 0 ? fixture : undefined;
}

/** Seeds the demo data once per database; every start gives its operators tokens valid from now. */
async function demoFixture(): Promise<string> {
  const config = loadConfig(CoreTenantsConfig);
  const dataSource = createDataSource({ url: config.DATABASE_URL, poolSize: 2, applicationName: 'demo-seed' });
  await dataSource.initialize();
  try {
    const stored = await storedFixture(dataSource);
    const fixture = stored ? await refreshDemoTokens(stored, config) : await seedDemo(dataSource, config);
    const text = `${JSON.stringify(fixture, null, 2)}\n`;
    mkdirSync('.data', { recursive: true });
    writeFileSync(DEMO_FIXTURE_FILE, text);
    return text;
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
  const applied = await runMigrations(databaseUrl);
  say(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database schema up to date');

  // Providers whose URL points at a loopback port are played by the sandbox, in this process.
  const sandbox = process.env.PROVIDER_SANDBOX === 'off' ? undefined : await startProviderSandbox(process.env);
  for (const line of sandbox?.lines ?? []) say(`sandbox: ${line}`);
  if (!process.env.SMTP_URL) {
    mailSink = await startMailSink(Number(process.env.MAIL_SINK_SMTP_PORT ?? 1025), Number(process.env.MAIL_SINK_HTTP_PORT ?? 1080));
    process.env.SMTP_URL = mailSink.smtpUrl;
    say(`no SMTP_URL: mails go to the local sink ${mailSink.smtpUrl}, readable at ${mailSink.viewerUrl}`);
  }

  process.once('SIGINT', () => stop(0));
  process.once('SIGTERM', () => stop(0));
  // The three APIs at once: the others fetch core-tenants' JWKS when the first token
  // arrives, not at boot, and no request comes before all three are ready. The
  // real-time gateway after them, so it never slows their boot on a small machine.
  const apis = APPS.filter((app) => app.name !== 'realtime-gateway');
  const gateways = APPS.filter((app) => app.name === 'realtime-gateway');
  for (const app of apis) launch(app);
  await Promise.all(apis.map(waitUntilReady));
  for (const app of gateways) launch(app);
  await Promise.all(gateways.map(waitUntilReady));

  say(`all apps ready ${((Date.now() - startedAt) / 1000).toFixed(1)} s after the start${localServices.postgresInitialised ? ' (the embedded PostgreSQL was created first)' : ''}:`);
  const fixture = await demoFixture();
  for (const app of APPS) {
    if (app.name === 'realtime-gateway') say(`  ${app.name.padEnd(17)} ws://127.0.0.1:${portOf(app)}/v1/realtime  (docs/realtime.md)`);
    else say(`  ${app.name.padEnd(17)} http://127.0.0.1:${portOf(app)}  (reference: /docs, OpenAPI: /openapi.json)`);
  }
  const ttlMinutes = Math.round(Number(process.env.OPERATOR_JWT_TTL_SECONDS ?? 3600) / 60);
  say(`demo fixture (${DEMO_FIXTURE_FILE}; its tokens were issued now and last ${ttlMinutes} min, each start issues new ones):\n${fixture}`);
  if (mailSink) say(`  ${'mail sink'.padEnd(17)} ${mailSink.viewerUrl}  (every mail the platform sends, e.g. sign-up codes)`);
  say('Ctrl+C stops everything');
}

main().catch((error: unknown) => stop(1, error));
