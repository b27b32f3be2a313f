import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import autocannon from 'autocannon';
import { cpuMicrosecondsOf, rssMebibytesOf } from './process-usage';

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  /** Requests sent. */
  requests: number;
  /** Bytes of an answer, headers included, on average (autocannon runs only). */
  bytesPerResponse?: number;
  /** CPU time (user + system) of the serving processes per request, in microseconds, when measured (measureCpu). */
  cpuMicrosecondsPerRequest?: number;
}

export interface LoadOptions {
  name: string;
  url: string;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST' | 'DELETE';
  body?: string;
  /** A body per request (e.g. a fresh address each time), instead of the fixed `body`. */
  nextBody?: () => string;
  durationSeconds?: number;
  /** Stop after this many requests instead of after a duration. */
  amount?: number;
  connections?: number;
  /** Path of each request in turn (e.g. a different resource each time). */
  nextPath?: () => string;
}

/** One autocannon run against a URL on loopback, bounded in time. */
export async function measure(options: LoadOptions): Promise<LoadResult> {
  const started = performance.now();
  let lastResponse = started;
  const result = await runAutocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    ...(options.amount ? { amount: options.amount } : { duration: options.durationSeconds ?? 10 }),
    connections: options.connections ?? 16,
    ...(options.nextPath || options.nextBody
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => ({
                ...request,
                ...(options.nextPath ? { path: options.nextPath() } : {}),
                ...(options.nextBody ? { body: options.nextBody() } : {}),
              }),
            },
          ],
        }
      : {}),
  }, () => (lastResponse = performance.now()));
  return {
    name: options.name,
    // Requests over the time to the last answer: autocannon ends a run (and averages per second)
    // on its one-second ticks, too coarse for runs of a few seconds.
    requestsPerSecond: Math.round(result.requests.total / ((lastResponse - started) / 1000)),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    requests: result.requests.total,
    bytesPerResponse: Math.round(result.throughput.total / result.requests.total),
  };
}

/** autocannon's run, calling `onResponse` at each answer. */
function runAutocannon(options: autocannon.Options, onResponse: () => void): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    instance.on('response', onResponse);
  });
}

export interface CpuResult extends LoadResult {
  cpuMicrosecondsPerRequest: number;
}

/**
 * Warms the serving processes up, then runs the load and divides the CPU
 * time the serving processes used meanwhile (summed over them, read from
 * /proc) by the requests sent. The load generator runs in this process, apart
 * from them.
 */
export async function measureCpu(options: LoadOptions & { servers: ChildProcess[]; warmUp?: number }): Promise<CpuResult> {
  const pids = options.servers.map((server) => server.pid as number);
  await measure({ ...options, amount: options.warmUp ?? 500 });
  const before = pids.reduce((sum, pid) => sum + cpuMicrosecondsOf(pid), 0);
  const load = await measure(options);
  const after = pids.reduce((sum, pid) => sum + cpuMicrosecondsOf(pid), 0);
  return { ...load, cpuMicrosecondsPerRequest: Math.round((after - before) / load.requests) };
}

export interface StartedApp {
  name: string;
  process: ChildProcess;
  /** From spawning the process to its first 2xx answer at the ready URL. */
  startToReadyMs: number;
  /** CPU time (user + system) the process used until then: start-up's cost whatever else the machine runs. */
  cpuToReadyMs: number;
  rssIdleMiB: number;
}

/** Starts an app and waits until `readyUrl` answers 2xx; records how long that took and its idle RSS. */
export async function startApp(name: string, script: string, env: NodeJS.ProcessEnv, readyUrl: string): Promise<StartedApp> {
  const started = performance.now();
  const child = await startProcess(script, env);
  try {
    // Generous: on a machine busy with other work the apps have taken over 20 s to start.
    await waitForHttp(readyUrl, 90_000, 10);
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  const startToReadyMs = Math.round(performance.now() - started);
  const cpuToReadyMs = Math.round(cpuMicrosecondsOf(child.pid as number) / 1000);
  // Let start-up work (pool fills, timers, JIT of boot code) settle before reading the idle footprint.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  return { name, process: child, startToReadyMs, cpuToReadyMs, rssIdleMiB: rssMebibytesOf(child.pid as number) };
}

/**
 * The Node.js binary the apps and the hellos run on: BENCH_NODE when set (e.g.
 * the release the images ship, to compare it with the one running the
 * bench), else the one running the bench.
 */
export const benchNode = process.env.BENCH_NODE || process.execPath;

/** The version of benchNode, e.g. `v24.11.0`. */
export function benchNodeVersion(): string {
  return execFileSync(benchNode, ['--version'], { encoding: 'utf8' }).trim();
}

/**
 * Starts a compiled script as its own process (apps run apart from the load
 * generator, as in production) on benchNode. With BENCH_CPU_PROFILE_DIR set,
 * each process writes a V8 CPU profile there when it exits (see
 * profile-summary.ts).
 */
export async function startProcess(script: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const profileDir = process.env.BENCH_CPU_PROFILE_DIR;
  const flags = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--require', `${__dirname}/exit-normally-on-signal.js`] : [];
  const child = spawn(benchNode, [...flags, script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout?.resume();
  return child;
}

export async function waitForHttp(url: string, timeoutMs = 30_000, pollMs = 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await fetch(url).then((response) => response.ok, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  // Exited already, or killed by a signal (a scenario's SIGKILL): its 'exit' has been and gone.
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

export function printTable(title: string, results: LoadResult[]): void {
  const withCpu = results.some((r) => r.cpuMicrosecondsPerRequest !== undefined);
  const cpu = (r: LoadResult) => (withCpu ? ` ${r.cpuMicrosecondsPerRequest ?? ''} |` : '');
  const lines = [
    `\n${title}`,
    `| scenario | req/s | p50 ms | p99 ms | non-2xx |${withCpu ? ' CPU µs/request |' : ''}`,
    `|---|---:|---:|---:|---:|${withCpu ? '---:|' : ''}`,
    ...results.map((r) => `| ${r.name} | ${r.requestsPerSecond} | ${r.p50Ms} | ${r.p99Ms} | ${r.non2xx} |${cpu(r)}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Page 1 of a large tenant must cost (in CPU per request) within 1.5x of page 1 of a small one. */
export function printScaleCheck(operation: string, small: CpuResult, large: CpuResult): void {
  const ratio = large.cpuMicrosecondsPerRequest / small.cpuMicrosecondsPerRequest;
  process.stdout.write(
    `\n${operation}: page 1 costs ${large.cpuMicrosecondsPerRequest} µs of CPU at the large size, ${small.cpuMicrosecondsPerRequest} µs at the small one: ` +
      `${ratio.toFixed(2)}x (target ≤ 1.5x: ${ratio <= 1.5 ? 'met' : 'NOT MET'})\n`,
  );
}

/** p50 and p99 of a list of durations in milliseconds. */
export function percentiles(samples: number[]): { p50: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: Math.round(at(0.5) * 100) / 100, p99: Math.round(at(0.99) * 100) / 100 };
}
