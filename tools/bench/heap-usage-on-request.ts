import { existsSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Preloaded (`--require`, with `--expose-gc`) by the realtime scenario into
 * the gateways: when the file `<BENCH_HEAP_USAGE_DIR>/<pid>.request` appears,
 * collects the garbage (twice: a full collection, then what its finalizers
 * freed) and writes `process.memoryUsage()` beside it as `<pid>.json`, under
 * a temporary name until complete, then removes the request. Memory held
 * per socket is then the growth of what survives a collection, not of the
 * garbage the handshakes left.
 */
const dir = process.env.BENCH_HEAP_USAGE_DIR as string;
const request = join(dir, `${process.pid}.request`);
const answer = join(dir, `${process.pid}.json`);
const collect = (globalThis as { gc?: () => void }).gc;
setInterval(() => {
  if (!existsSync(request)) return;
  collect?.();
  collect?.();
  writeFileSync(`${answer}.partial`, JSON.stringify({ collected: collect !== undefined, ...process.memoryUsage() }));
  renameSync(`${answer}.partial`, answer);
  unlinkSync(request);
}, 200).unref();
