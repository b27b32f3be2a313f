#!/usr/bin/env node
/**
 * `npm run api-client:pack-check` (CI): packs libs/api-client as its README
 * says (`npm pack ./libs/api-client` after `npm run build:api-client`), and
 * proves the tarball is the package and only it:
 *
 * 1. package.json is complete (license, repository, publishConfig) and its
 *    dependency ranges accept the versions the repository builds and tests
 *    the client with;
 * 2. the tarball holds package.json, README.md, CHANGELOG.md, LICENSE and, for
 *    every module of src/ (tests aside), its built ES module and its .d.ts;
 *    nothing else (no TypeScript source, no test, nothing of another lib);
 * 3. `npm install <tarball>` in an empty project, as the README says: it
 *    resolves through its `exports` map, Node.js imports it and builds the
 *    three clients, and TypeScript (module nodenext) typechecks the README's
 *    own example and a consumer against its types.
 *
 * Run `npm run build:api-client` first. The install reaches the registry for
 * openapi-fetch, the one dependency, as a plugin author's would.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import semver from 'semver';

const PACKAGE_DIR = resolve('libs/api-client');
const TSC = resolve('node_modules/typescript/bin/tsc');
const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8'));
const root = JSON.parse(readFileSync('package.json', 'utf8'));

// A package plugin authors can install and trust: what the registry shows, and where it is published.
for (const field of ['license', 'repository', 'publishConfig']) {
  if (!manifest[field]) throw new Error(`libs/api-client/package.json has no ${field}`);
}
if (manifest.license !== root.license) throw new Error(`libs/api-client is licensed ${manifest.license}, the repository ${root.license}`);
// Ranges, not pins, that accept the openapi-fetch the repository builds and tests the client with.
for (const [name, range] of Object.entries(manifest.dependencies)) {
  if (semver.valid(range)) throw new Error(`libs/api-client pins ${name} to ${range}: give a range (^${range})`);
  if (!semver.satisfies(root.dependencies[name], range)) throw new Error(`libs/api-client depends on ${name} ${range}, which the repository's ${root.dependencies[name]} does not satisfy`);
}

function modulesOf(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts'))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).replace(/\.ts$/, ''));
}

function run(command, args, cwd) {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

const work = mkdtempSync(join(tmpdir(), 'api-client-pack-'));
try {
  const [packed] = JSON.parse(run('npm', ['pack', './libs/api-client', '--json', '--pack-destination', work], process.cwd()));
  const files = packed.files.map((file) => file.path).sort();
  const expected = ['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json', ...modulesOf(join(PACKAGE_DIR, 'src')).flatMap((module) => [`dist/${module}.d.ts`, `dist/${module}.js`])].sort();
  if (JSON.stringify(files) !== JSON.stringify(expected)) {
    const missing = expected.filter((file) => !files.includes(file));
    const extra = files.filter((file) => !expected.includes(file));
    throw new Error(`${packed.filename} does not hold the package: missing ${JSON.stringify(missing)}, extra ${JSON.stringify(extra)}`);
  }
  console.log(`${packed.filename}: ${files.length} files, ${packed.size} bytes`);

  const consumer = join(work, 'consumer');
  run('mkdir', ['-p', consumer], work);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  run('npm', ['install', '--no-audit', '--no-fund', join(work, packed.filename)], consumer);
  const installed = JSON.parse(readFileSync(join(consumer, 'package.json'), 'utf8')).dependencies?.[manifest.name];
  if (!installed?.startsWith('file:')) throw new Error(`npm install <tarball> did not record ${manifest.name} in the project: ${installed}`);

  writeFileSync(
    join(consumer, 'imports.mjs'),
    `import * as client from '${manifest.name}';\n` +
      "const made = [client.createServicesApiClient, client.createPluginsHelpdeskClient, client.createCoreTenantsClient].map((create) => create('http://127.0.0.1:1'));\n" +
      "if (!made.every((api) => typeof api.GET === 'function' && typeof api.use === 'function')) throw new Error('not an openapi-fetch client');\n" +
      "console.log('imported:', Object.keys(client).sort().join(', '));\n",
  );
  process.stdout.write(run('node', ['imports.mjs'], consumer));

  writeFileSync(
    join(consumer, 'typed.ts'),
    `import { createServicesApiClient, type ServicesApi } from '${manifest.name}';\n` +
      "const services = createServicesApiClient('http://127.0.0.1:3000');\n" +
      "export async function models(tenantID: string): Promise<ServicesApi.components['schemas']['CampaignModelList'] | undefined> {\n" +
      "  const { data } = await services.GET('/v1/tenants/{tenantID}/campaigns-models', { params: { path: { tenantID } } });\n" +
      '  return data;\n' +
      '}\n',
  );
  // The README's example, as a plugin author would paste it.
  const example = /```ts\n([\s\S]*?)```/.exec(readFileSync(join(PACKAGE_DIR, 'README.md'), 'utf8'))?.[1];
  if (!example) throw new Error('libs/api-client/README.md has no ```ts example');
  writeFileSync(join(consumer, 'readme-example.ts'), example);
  writeFileSync(
    join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2023', 'dom'], strict: true, noEmit: true, types: [] },
      files: ['typed.ts', 'readme-example.ts'],
    }),
  );
  run('node', [TSC, '-p', 'tsconfig.json'], consumer);
  console.log("typechecked: the README's example and a consumer of its types (module nodenext)");
} finally {
  rmSync(work, { recursive: true, force: true });
}
