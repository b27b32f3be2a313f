import { LoadResult } from '../harness';

/**
 * Runs `work` from `concurrency` loops for `durationSeconds` and reports it
 * like autocannon does: the same SQL as an endpoint, without HTTP, auth or Nest.
 */
export async function measureBare(name: string, work: () => Promise<unknown>, options: { durationSeconds: number; concurrency: number }): Promise<LoadResult> {
  const latencies: number[] = [];
  const deadline = performance.now() + options.durationSeconds * 1000;
  const loop = async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      await work();
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, loop));
  latencies.sort((a, b) => a - b);
  const at = (quantile: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(quantile * latencies.length))] * 100) / 100;
  return { name, requestsPerSecond: Math.round(latencies.length / options.durationSeconds), p50Ms: at(0.5), p99Ms: at(0.99), non2xx: 0, requests: latencies.length };
}
