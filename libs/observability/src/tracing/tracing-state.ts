/**
 * Whether this process exports traces, without loading the SDK to find out:
 * the code on every request asks this first, so with tracing off it costs
 * one boolean test.
 */
interface RunningTracing {
  shutdown(): Promise<void>;
}

let running: RunningTracing | undefined;

export function tracingActive(): boolean {
  return running !== undefined;
}

export function markTracingStarted(tracing: RunningTracing): void {
  running = tracing;
}

/** Exports the spans still buffered and stops tracing; nothing to do when it is off. */
export async function stopTracing(): Promise<void> {
  const stopping = running;
  running = undefined;
  await stopping?.shutdown();
}
