import { AppName } from './app-replica';
import { AppClients, BalancedClient } from './fault-platform';
import { statusAndBody, TypedAnswer } from './typed-answer';

/** One answer of a load run: its status, its body (success or error) and the replica that gave it. */
export interface LoadAnswer {
  status: number;
  body: unknown;
  servedBy: string;
}

/** One request of a load run: its answer (or the error the client got) and when it started. */
export interface LoadSample {
  startedAt: number;
  response?: LoadAnswer;
  error?: unknown;
}

/** Requests sent back to back by `concurrency` clients until `stop()`, every answer kept. */
export interface LoadRun {
  samples: LoadSample[];
  /** Stops sending and waits for the requests in flight. */
  stop(): Promise<LoadSample[]>;
}

export function startLoad<A extends AppName>(balancer: BalancedClient<A>, send: (api: AppClients[A]) => Promise<TypedAnswer>, concurrency = 4): LoadRun {
  const samples: LoadSample[] = [];
  let stopping = false;
  const client = async () => {
    while (!stopping) {
      const sample: LoadSample = { startedAt: Date.now() };
      try {
        const answer = await send(balancer.api);
        sample.response = { ...statusAndBody(answer), servedBy: balancer.servedBy(answer.response) };
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
