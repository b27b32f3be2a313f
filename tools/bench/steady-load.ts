import { percentiles } from './harness';

/** One kind of request of a mixed load, sent at a fixed rate whatever the answers' speed. */
export interface Stream {
  name: string;
  /** Requests (or request sequences) started per second. */
  perSecond: number;
  /** Sends one request (or a short sequence, e.g. add then remove) and answers its HTTP status(es). */
  send: () => Promise<number | number[]>;
  /** Statuses that count as expected (default: any 2xx). */
  expected?: number[];
}

export interface StreamResult {
  name: string;
  sent: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers with a status outside `expected` (or failed requests). */
  unexpected: number;
  /** The first unexpected status or error, to say why. */
  firstUnexpected?: string;
}

/**
 * Runs every stream at its rate for `seconds` (an open loop: a slow answer
 * does not delay the next request, as with real clients), then waits for the
 * requests in flight. Calls `onTick` once a second, e.g. to sample memory.
 */
export async function runSteadyLoad(streams: Stream[], seconds: number, onTick: (elapsedSeconds: number) => void = () => {}): Promise<StreamResult[]> {
  const started = performance.now();
  const endsAt = started + seconds * 1000;
  const inFlight = new Set<Promise<void>>();
  const state = streams.map((stream) => ({ stream, latencies: [] as number[], unexpected: 0, firstUnexpected: undefined as string | undefined, sent: 0 }));
  const fire = (entry: (typeof state)[number]) => {
    entry.sent += 1;
    const at = performance.now();
    const request = entry.stream
      .send()
      .then(
        (statuses) => {
          const bad = [statuses].flat().find((status) => (entry.stream.expected ? !entry.stream.expected.includes(status) : status < 200 || status > 299));
          if (bad !== undefined) {
            entry.unexpected += 1;
            entry.firstUnexpected ??= `HTTP ${bad}`;
          }
        },
        (error: unknown) => {
          entry.unexpected += 1;
          entry.firstUnexpected ??= error instanceof Error ? error.message : String(error);
        },
      )
      .finally(() => {
        entry.latencies.push(performance.now() - at);
        inFlight.delete(request);
      });
    inFlight.add(request);
  };
  const timers = state.map((entry) => setInterval(() => fire(entry), 1000 / entry.stream.perSecond));
  let tick = 0;
  await new Promise<void>((resolve) => {
    const ticker = setInterval(() => {
      tick += 1;
      onTick(tick);
      if (performance.now() >= endsAt) {
        clearInterval(ticker);
        resolve();
      }
    }, 1000);
  });
  for (const timer of timers) clearInterval(timer);
  await Promise.all(inFlight);
  return state.map((entry) => ({
    name: entry.stream.name,
    sent: entry.sent,
    ...renamed(percentiles(entry.latencies.length ? entry.latencies : [0])),
    unexpected: entry.unexpected,
    firstUnexpected: entry.firstUnexpected,
  }));
}

function renamed({ p50, p99 }: { p50: number; p99: number }): { p50Ms: number; p99Ms: number } {
  return { p50Ms: Math.round(p50 * 10) / 10, p99Ms: Math.round(p99 * 10) / 10 };
}
