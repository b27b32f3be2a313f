import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { CoreTenantsConfig } from '@apps/core-tenants';
import { exitOnStartupFailure, loadConfig } from '@platform/config';
import { createDataSource, runMigrations } from '@platform/database';
import { WhatsAppTemplateStub } from '@platform/testing';
import { seedDemo } from '../demo/demo-fixture';
import { ensureDatabaseExists } from '../support/ensure-database';
import { loadLocalEnvironment } from '../support/env-file';

/**
 * `npm start`: applies migrations, then runs the three apps (each its own
 * process, as in production) until stopped, seeding the demo data once.
 */
const APPS = [
  { name: 'core-tenants', portVariable: 'CORE_TENANTS_PORT', defaultPort: 3002 },
  { name: 'services-api', portVariable: 'SERVICES_API_PORT', defaultPort: 3000 },
  { name: 'plugins-helpdesk', portVariable: 'PLUGINS_HELPDESK_PORT', defaultPort: 3001 },
] as const;

const DEMO_FIXTURE_FILE = '.data/demo-fixture.json';
const READY_TIMEOUT_MS = 60_000;

const say = (line: string) => process.stderr.write(`[start] ${line}\n`);
const children: ChildProcess[] = [];
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

function stop(exitCode: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve))))).then(() =>
    process.exit(exitCode),
  );
}

async function demoFixture(): Promise<string> {
  if (existsSync(DEMO_FIXTURE_FILE)) return readFileSync(DEMO_FIXTURE_FILE, 'utf8');
  const config = loadConfig(CoreTenantsConfig);
  const dataSource = createDataSource({ url: config.DATABASE_URL, poolSize: 2, applicationName: 'demo-seed' });
  await dataSource.initialize();
  try {
    const fixture = `${JSON.stringify(await seedDemo(dataSource, config), null, 2)}\n`;
    mkdirSync('.data', { recursive: true });
    writeFileSync(DEMO_FIXTURE_FILE, fixture);
    return fixture;
  } finally {
    await dataSource.destroy();
  }
}

/**
 * Provider base URLs that are not set point at a local sandbox (DESIGN.md
 * section 8): the message-template provider's stub, in this process.
 */
async function startProviderSandbox(): Promise<void> {
  if (process.env.WHATSAPP_API_BASE_URL) return;
  const templates = await WhatsAppTemplateStub.start();
  process.env.WHATSAPP_API_BASE_URL = templates.baseUrl;
  process.env.WHATSAPP_ACCESS_TOKEN ??= 'sandbox-system-user-token';
  say(`message-template provider sandbox at ${templates.baseUrl}`);
}

async function main(): Promise<void> {
  const envFile = loadLocalEnvironment();
  say(`configuration from ${envFile ?? 'the environment'}`);
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is missing');
  await ensureDatabaseExists(databaseUrl);
  const applied = await runMigrations(databaseUrl);
  say(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database schema up to date');
  await startProviderSandbox();

  process.once('SIGINT', () => stop(0));
  process.once('SIGTERM', () => stop(0));
  // core-tenants first: the others verify operator tokens with its JWKS.
  launch(APPS[0]);
  await waitUntilReady(APPS[0]);
  for (const app of APPS.slice(1)) launch(app);
  await Promise.all(APPS.slice(1).map(waitUntilReady));

  const fixture = await demoFixture();
  say('all apps ready:');
  for (const app of APPS) say(`  ${app.name.padEnd(17)} http://127.0.0.1:${portOf(app)}  (reference: /docs, OpenAPI: /openapi.json)`);
  say(`demo fixture (${DEMO_FIXTURE_FILE}; tokens last 1 h, \`npm run --silent demo:seed\` makes fresh ones):\n${fixture}`);
  say('Ctrl+C stops everything');
}

main().catch((error: unknown) => {
  stop(1);
  exitOnStartupFailure(error);
});
