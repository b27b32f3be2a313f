// `node tools/deploy/check-deploy.mjs [app...]` (after build:deploy): proves
// each dist/deploy/<app> starts on its own. Every entry of the app runs from a
// copy of the directory outside the repository (so Node's lookup cannot fall
// back to the repository's node_modules), with tracing on (the OpenTelemetry
// SDK loads only then) and no configuration: it must load every module it
// requires at startup and stop at its configuration check, before it connects
// or listens. A module missing from the closure fails the check.
//
// With --start (DATABASE_URL and REDIS_URL set, to servers of their own), it
// then goes all the way: the migration entry of the first app migrates that
// database, and each app starts from its copy with the local defaults of
// .env.example and must answer /health/ready, then stops. That also loads what
// an app requires only while it starts (the PostgreSQL driver TypeORM loads,
// the static-file plugin of the API reference page).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { APPS } from './build-deploy.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** What each entry reports once all its modules loaded and it finds no configuration. */
const REACHED_CONFIGURATION = {
  'dist/tools/db/migrate.js': 'DATABASE_MIGRATION_URL and DATABASE_URL are missing',
};
const APP_CONFIGURATION_CHECK = 'Invalid configuration';

function checkEntry(dir, entry) {
  const run = spawnSync(process.execPath, [entry], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
    // Only what the image sets, plus an OTLP endpoint so the tracing SDK loads too
    // (nothing is exported: the process stops before its first request).
    env: { PATH: process.env.PATH, NODE_ENV: 'production', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' },
  });
  const output = `${run.stdout}${run.stderr}`;
  const expected = REACHED_CONFIGURATION[entry] ?? APP_CONFIGURATION_CHECK;
  if (/Cannot find module|MODULE_NOT_FOUND|ERR_MODULE_NOT_FOUND/.test(output) || !output.includes(expected)) {
    throw new Error(`${entry} did not reach its configuration check (exit ${run.status ?? run.signal}):\n${output}`);
  }
}

const localDefaults = () => parseEnv(readFileSync(join(root, '.env.example'), 'utf8'));

/** CPU time (user + system) a process has used, in seconds, from /proc (Linux); undefined elsewhere. */
function cpuSecondsOf(pid) {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
/** The kernel's USER_HZ, 100 on every Linux the apps run on. */
const CLOCK_TICKS = 100;

/** Starts the app from its copy until /health/ready answers 200; returns the CPU seconds it used until then. */
async function startUntilReady(dir, app) {
  const env = { PATH: process.env.PATH, ...localDefaults(), DATABASE_URL: process.env.DATABASE_URL, REDIS_URL: process.env.REDIS_URL, METRICS_PORT: '0' };
  env.OPERATOR_JWT_KEY_FILE = join(dir, 'operator-jwt-signing-key.pem');
  const port = env[APPS[app].portVariable];
  const child = spawn(process.execPath, [APPS[app].entries[0]], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (const deadline = Date.now() + 90_000; Date.now() < deadline; ) {
      if (child.exitCode !== null) break;
      const answer = await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => undefined);
      if (answer?.status === 200) return cpuSecondsOf(child.pid);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error(`${app} did not answer /health/ready from its deploy directory:\n${output}`);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

async function main() {
  const start = process.argv.includes('--start');
  if (start && !(process.env.DATABASE_URL && process.env.REDIS_URL)) throw new Error('--start needs DATABASE_URL and REDIS_URL');
  const asked = process.argv.slice(2).filter((arg) => arg !== '--start');
  const apps = asked.length > 0 ? asked : Object.keys(APPS);
  for (const app of apps) {
    if (!APPS[app]) throw new Error(`unknown app ${app}`);
    const scratch = mkdtempSync(join(tmpdir(), `deploy-${app}-`));
    try {
      const dir = join(scratch, 'app');
      cpSync(join(root, 'dist', 'deploy', app), dir, { recursive: true });
      for (const entry of APPS[app].entries) checkEntry(dir, entry);
      process.stdout.write(`dist/deploy/${app}: ${APPS[app].entries.join(', ')} load every module on their own\n`);
      if (start) {
        if (app === apps[0]) migrate(dir);
        const cpu = await startUntilReady(dir, app);
        const cpuText = cpu === undefined ? '' : ` after ${cpu.toFixed(2)} s of CPU`;
        process.stdout.write(`dist/deploy/${app}: started on its own and answered /health/ready${cpuText}\n`);
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
}

function migrate(dir) {
  const run = spawnSync(process.execPath, ['dist/tools/db/migrate.js'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
    env: { PATH: process.env.PATH, DATABASE_URL: process.env.DATABASE_URL },
  });
  if (run.status !== 0) throw new Error(`dist/tools/db/migrate.js failed from its deploy directory:\n${run.stdout}${run.stderr}`);
}

main().catch((error) => {
  process.stderr.write(`check-deploy: ${error.message}\n`);
  process.exit(1);
});
