import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';

/**
 * Preloaded (`--require`) by the memory scenario into an app it snapshots:
 * on SIGUSR2, writes a heap snapshot to BENCH_HEAP_SNAPSHOT_DIR as
 * `<BENCH_HEAP_SNAPSHOT_NAME>-<n>.heapsnapshot`, under a temporary name until
 * it is complete, so the bench can wait for the file. (Node's own
 * --heapsnapshot-signal gives no sign of completion.)
 */
const dir = process.env.BENCH_HEAP_SNAPSHOT_DIR as string;
const name = `${process.env.BENCH_HEAP_SNAPSHOT_NAME ?? 'app'}-${process.pid}`;
let count = 0;
process.on('SIGUSR2', () => {
  count += 1;
  const file = join(dir, `${name}-${count}.heapsnapshot`);
  writeHeapSnapshot(`${file}.partial`);
  renameSync(`${file}.partial`, file);
});
