import { ChildProcess, spawn, SpawnOptions } from 'node:child_process';
import { once } from 'node:events';

/**
 * Every process the harness started and that has not exited yet. If the test
 * process ends without its afterAll having stopped them (a crash, a timeout),
 * the exit hook below kills them, so no app or redis-server outlives a run.
 */
const running = new Set<ChildProcess>();

process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Spawns a child the harness is responsible for stopping. */
export function spawnTracked(command: string, args: string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Resolves once `child` has exited (at once if it already has). */
export async function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return { code: child.exitCode, signal: child.signalCode };
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  return { code, signal };
}

/** Sends `signal` and waits for the exit; SIGKILL after `graceMs` if the child is still there. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', graceMs = 15_000) {
  const exited = exitOf(child);
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  try {
    return await exited;
  } finally {
    clearTimeout(timer);
  }
}

/** Keeps the last `limit` characters a child wrote, to explain a failure. */
export function captureOutput(child: ChildProcess, limit = 20_000): () => string {
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-limit);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => output;
}
