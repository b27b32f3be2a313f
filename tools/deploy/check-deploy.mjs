// `node tools/deploy/check-deploy.mjs [app...]` (after build:deploy): proves
// each dist/deploy/<app> starts on its own. Every entry of the app runs from a
// copy of the directory outside the repository (so Node's lookup cannot fall
// back to the repository's node_modules), with tracing on (the OpenTelemetry
// SDK loads only then) and no configuration: it must load every module it
// requires at startup and stop at its configuration check, before it connects
// or listens. A module missing from the closure fails the check.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

function main() {
  const asked = process.argv.slice(2);
  const apps = asked.length > 0 ? asked : Object.keys(APPS);
  for (const app of apps) {
    if (!APPS[app]) throw new Error(`unknown app ${app}`);
    const scratch = mkdtempSync(join(tmpdir(), `deploy-${app}-`));
    try {
      const dir = join(scratch, 'app');
      cpSync(join(root, 'dist', 'deploy', app), dir, { recursive: true });
      for (const entry of APPS[app].entries) checkEntry(dir, entry);
      process.stdout.write(`dist/deploy/${app}: ${APPS[app].entries.join(', ')} load every module on their own\n`);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
}

try {
  main();
} catch (error) {
  process.stderr.write(`check-deploy: ${error.message}\n`);
  process.exit(1);
}
