import { existsSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';

/**
 * Preloaded (`--require`) by the memory scenario into an app it snapshots:
 * when the file `<BENCH_HEAP_SNAPSHOT_DIR>/<name>-<pid>.request` appears,
 * writes a heap snapshot beside it as `<name>-<pid>-<n>.heapsnapshot`, under
 * a temporary name until complete, and removes the request. A file, not a
 * signal: signal-exit (a dependency's dependency) re-raises SIGUSR2 and
 * ends the process after Node's own --heapsnapshot-signal.
 */
const dir = process.env.BENCH_HEAP_SNAPSHOT_DIR as string;
const name = `${process.env.BENCH_HEAP_SNAPSHOT_NAME ?? 'app'}-${process.pid}`;
const request = join(dir, `${name}.request`);
let count = 0;
setInterval(() => {
  if (!existsSync(request)) return;
  count += 1;
  const file = join(dir, `${name}-${count}.heapsnapshot`);
  writeHeapSnapshot(`${file}.partial`);
  renameSync(`${file}.partial`, file);
  unlinkSync(request);
}, 200).unref();
