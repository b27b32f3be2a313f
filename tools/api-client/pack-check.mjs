#!/usr/bin/env node
/**
 * `npm run api-client:pack-check` (CI): packs libs/api-client as plugin authors
 * get it from the registry, and proves the tarball is the package and only it:
 *
 * 1. it holds package.json, README.md and, for every module of src/ (tests
 *    aside), its built ES module and its .d.ts; nothing else (no TypeScript
 *    source, no test, nothing of another lib);
 * 2. installed into an empty project, it resolves through its `exports` map:
 *    Node.js imports it and builds the three clients, and TypeScript (module
 *    nodenext) typechecks a consumer against its types.
 *
 * Its dependencies must be at the versions of the root package.json. Run
 * `npm run build:api-client` first. The install reaches the registry for
 * openapi-fetch, the one dependency, as a plugin author's would.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const PACKAGE_DIR = resolve('libs/api-client');
const TSC = resolve('node_modules/typescript/bin/tsc');
const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8'));
const root = JSON.parse(readFileSync('package.json', 'utf8'));

// The package runs on the openapi-fetch the repository builds and tests it with.
for (const [name, version] of Object.entries(manifest.dependencies)) {
  if (root.dependencies[name] !== version) throw new Error(`libs/api-client depends on ${name} ${version}, the repository on ${root.dependencies[name]}`);
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
  const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], PACKAGE_DIR));
  const files = packed.files.map((file) => file.path).sort();
  const expected = ['README.md', 'package.json', ...modulesOf(join(PACKAGE_DIR, 'src')).flatMap((module) => [`dist/${module}.d.ts`, `dist/${module}.js`])].sort();
  if (JSON.stringify(files) !== JSON.stringify(expected)) {
    const missing = expected.filter((file) => !files.includes(file));
    const extra = files.filter((file) => !expected.includes(file));
    throw new Error(`${packed.filename} does not hold the package: missing ${JSON.stringify(missing)}, extra ${JSON.stringify(extra)}`);
  }
  console.log(`${packed.filename}: ${files.length} files, ${packed.size} bytes`);

  const consumer = join(work, 'consumer');
  run('mkdir', ['-p', consumer], work);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', join(work, packed.filename)], consumer);

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
  writeFileSync(
    join(consumer, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2023', 'dom'], strict: true, noEmit: true, types: [] }, files: ['typed.ts'] }),
  );
  run('node', [TSC, '-p', 'tsconfig.json'], consumer);
  console.log('typechecked: a consumer of its types (module nodenext)');
} finally {
  rmSync(work, { recursive: true, force: true });
}
