#!/usr/bin/env node
/**
 * Completes package-lock.json with the platform binaries our registry mirror
 * does not carry (e.g. @swc/core-darwin-arm64, @rollup/rollup-win32-x64-msvc).
 *
 * npm records an optional dependency in the lockfile only if it can read its
 * manifest; when the mirror answers 404, the entry is left out and `npm ci`
 * then refuses the lockfile as out of sync. This adds those entries with
 * their os/cpu/libc (read from the package name, the convention every one of
 * these binary packages follows), so `npm ci` knows to skip them on a
 * platform they do not match. Run it after every `npm install` that changes
 * the lockfile: `npm run lockfile:complete`.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const LOCKFILE = new URL('../../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(LOCKFILE, 'utf8'));

const OS = ['darwin', 'linux', 'win32', 'freebsd', 'openbsd', 'netbsd', 'android', 'sunos', 'aix', 'openharmony'];
const CPU = { x64: 'x64', arm64: 'arm64', arm: 'arm', ia32: 'ia32', ppc64: 'ppc64', s390x: 's390x', riscv64: 'riscv64', loong64: 'loong64', wasm32: 'wasm32' };

function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = tokens.find((token) => OS.includes(token));
  const cpu = tokens.map((token) => CPU[token]).find(Boolean);
  if (!os || !cpu) return undefined;
  const platform = { os: [os], cpu: [cpu] };
  if (os === 'linux') platform.libc = [tokens.some((token) => token.startsWith('musl')) ? 'musl' : 'glibc'];
  return platform;
}

let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ''}node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (lock.packages[nested] || lock.packages[hoisted]) continue;
    const platform = platformOf(name);
    if (!platform || !/^\d+\.\d+\.\d+/.test(spec)) {
      process.stderr.write(`left alone: ${name}@${spec} (no platform in its name or no exact version)\n`);
      continue;
    }
    lock.packages[hoisted] = { version: spec, ...platform, ...(entry.dev ? { dev: true } : {}), optional: true };
    added += 1;
  }
}

lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(LOCKFILE, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`package-lock.json: ${added} foreign-platform entries added\n`);
