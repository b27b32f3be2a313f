import { readFileSync } from 'node:fs';

/**
 * `node dist/tools/bench/profile-summary.js FILE.cpuprofile [TOP] [FROM_SECONDS] [TO_SECONDS]`:
 * where a V8 CPU profile (node --cpu-prof; `BENCH_CPU_PROFILE_DIR` makes the
 * bench write one per app) spent its time, by package or source file and by
 * function, as shares of the samples. FROM_SECONDS leaves out the samples of
 * the profile's first seconds (start-up: module loading and compiling), so
 * what is left is the requests; TO_SECONDS leaves out the samples after it
 * (a scenario that prints when each of its phases ran, as realtime does,
 * can then be read one phase at a time).
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  /** Microseconds between one sample and the one before it. */
  timeDeltas: number[];
}

/** `jose`, `@nestjs/core`, `node:internal/crypto`, or the file under dist/ for our own code. */
function ownerOf(url: string): string {
  if (!url) return '(native or idle)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1];
  if (url.startsWith('node:')) return url.split('/').slice(0, 3).join('/');
  const ours = /\/dist\/(.+)$/.exec(url);
  return ours ? ours[1] : url;
}

function main(): void {
  const [file, topArgument, fromArgument, toArgument] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary FILE.cpuprofile [TOP] [FROM_SECONDS] [TO_SECONDS]');
  const top = Number(topArgument ?? 25);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byID = new Map(profile.nodes.map((node) => [node.id, node]));
  const idle = new Set(['(idle)', '(program)', '(garbage collector)']);
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  const fromMicroseconds = Number(fromArgument ?? 0) * 1_000_000;
  const toMicroseconds = toArgument === undefined ? Infinity : Number(toArgument) * 1_000_000;
  let elapsed = 0;
  for (const [index, id] of profile.samples.entries()) {
    elapsed += profile.timeDeltas[index] ?? 0;
    if (elapsed < fromMicroseconds || elapsed > toMicroseconds) continue;
    const { functionName, url, lineNumber } = byID.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    busy += 1;
    const owner = idle.has(functionName) ? functionName : ownerOf(url);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + 1);
    const name = `${functionName || '(anonymous)'} ${owner}:${lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + 1);
  }
  const print = (title: string, counts: Map<string, number>) => {
    const rows = [...counts].sort((a, b) => b[1] - a[1]).slice(0, top);
    process.stdout.write(`\n${title} (self time, % of ${busy} busy samples)\n`);
    for (const [name, count] of rows) process.stdout.write(`${((count / busy) * 100).toFixed(1).padStart(5)}%  ${name}\n`);
  };
  print('By package or file', byOwner);
  print('By function', byFunction);
}

main();
