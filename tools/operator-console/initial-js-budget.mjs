#!/usr/bin/env node
/**
 * `npm run build:console`, after Vite: the JavaScript a first visit loads
 * before the console can render (index.html's module script and the chunks
 * it preloads), gzipped, must stay within the budget; and index.html must
 * hold no inline script, which the console's Content-Security-Policy refuses.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 150 * 1024;
const dir = process.argv[2] ?? 'dist/operator-console';
const html = readFileSync(join(dir, 'index.html'), 'utf8');

const inline = [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>/g)];
if (inline.length > 0) {
  process.stderr.write(`${dir}/index.html has an inline script, which the CSP refuses: ${inline[0][0]}\n`);
  process.exit(1);
}
const initial = new Set([
  ...[...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1]),
  ...[...html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((match) => match[1]),
]);
let total = 0;
const lines = [];
for (const src of initial) {
  const size = gzipSync(readFileSync(join(dir, src.replace(/^\//, '')))).length;
  total += size;
  lines.push(`  ${src}: ${(size / 1024).toFixed(1)} KiB gzipped`);
}
const verdict = `initial JavaScript ${(total / 1024).toFixed(1)} KiB gzipped, budget ${BUDGET_BYTES / 1024} KiB`;
if (total > BUDGET_BYTES) {
  process.stderr.write(`${verdict}: over budget\n${lines.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`${verdict}\n${lines.join('\n')}\n`);
