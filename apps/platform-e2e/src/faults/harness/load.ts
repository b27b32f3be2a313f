import { BalancedResponse, RoundRobin } from './round-robin';

/** One request of a load run: its answer (or the error the client got) and when it started. */
export interface LoadSample {
  startedAt: number;
  response?: BalancedResponse;
  error?: unknown;
}

/** Requests sent back to back by `concurrency` clients until `stop()`, every answer kept. */
export interface LoadRun {
  samples: LoadSample[];
  /** Stops sending and waits for the requests in flight. */
  stop(): Promise<LoadSample[]>;
}

export function startLoad(balancer: RoundRobin, send: (balancer: RoundRobin) => Promise<BalancedResponse>, concurrency = 4): LoadRun {
  const samples: LoadSample[] = [];
  let stopping = false;
  const client = async () => {
    while (!stopping) {
      const sample: LoadSample = { startedAt: Date.now() };
      try {
        sample.response = await send(balancer);
      } catch (error) {
        sample.error = error;
      }
      samples.push(sample);
    }
  };
  const clients = Array.from({ length: concurrency }, client);
  return {
    samples,
    async stop() {
      stopping = true;
      await Promise.all(clients);
      return samples;
    },
  };
}
