import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { cpuMicrosecondsOf } from './process-usage';
import type { ClientAnswer, ClientRequest } from './realtime-clients';

/** p50, p99 and the largest of the merged latency histograms, in ms. */
export interface Latency {
  p50: number;
  p99: number;
  max: number;
  samples: number;
}

/** What every child answered, summed (sockets, frames, lost) or merged (fewest, histogram). */
export interface PoolAnswer {
  sockets: number;
  open: number;
  fewest: number;
  frames: number;
  lost: number;
  resumed: number;
  latency: Latency;
}

/**
 * The realtime scenario's client sockets, spread over child processes
 * (realtime-clients.ts), so the load generator's CPU is its own and not the
 * bench's, and the gateways' cost per event can be read apart from it.
 */
export class RealtimeClientPool {
  private nextID = 0;
  private readonly pending = new Map<number, { resolve: (answer: Partial<ClientAnswer>) => void; reject: (error: Error) => void }>();

  private constructor(private readonly children: ChildProcess[]) {
    for (const child of children) {
      child.on('message', (message: { id: number; answer?: Partial<ClientAnswer>; error?: string }) => {
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error !== undefined) waiting?.reject(new Error(message.error));
        else waiting?.resolve(message.answer ?? {});
      });
    }
  }

  static start(processes: number): RealtimeClientPool {
    return new RealtimeClientPool(Array.from({ length: processes }, () => fork(join(__dirname, 'realtime-clients.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })));
  }

  get pids(): number[] {
    return this.children.map((child) => child.pid as number);
  }

  /** CPU time (user + system) the client processes have used so far, in microseconds. */
  cpuMicroseconds(): number {
    return this.pids.reduce((sum, pid) => sum + cpuMicrosecondsOf(pid), 0);
  }

  /** Opens `count` sockets (each subscribed), spread over the processes and, within each, round-robin over `urls`. */
  async open(count: number, urls: string[], authorization: string, concurrency = 50): Promise<PoolAnswer> {
    const share = (index: number) => Math.floor(count / this.children.length) + (index < count % this.children.length ? 1 : 0);
    return this.each((index) => ({ op: 'open', urls, authorization, count: share(index), concurrency }));
  }

  /** Forgets the counts and latencies so far; with `track`, every event is parsed and its sequence kept (the loss check). */
  reset(track: boolean): Promise<PoolAnswer> {
    return this.each(() => ({ op: 'reset', track }));
  }

  /** The counts so far; with `latencies`, the latency histograms too. */
  counts(latencies = false): Promise<PoolAnswer> {
    return this.each(() => ({ op: 'counts', latencies }));
  }

  /** Once the sockets opened on `from` have closed, opens them again on `to` with `resume`. */
  resume(from: string, to: string, authorization: string): Promise<PoolAnswer> {
    return this.each(() => ({ op: 'resume', from, to, authorization }));
  }

  /** (socket, event) pairs missing among the `count` sequences from `from`. */
  lost(from: number, count: number): Promise<PoolAnswer> {
    return this.each(() => ({ op: 'lost', from, count }));
  }

  close(): Promise<PoolAnswer> {
    return this.each(() => ({ op: 'close' }));
  }

  stop(): void {
    for (const child of this.children) child.disconnect();
  }

  /** Waits until every open socket received `count` events, or `timeoutMs` passed; answers the counts. */
  async settle(count: number, timeoutMs = 30_000): Promise<PoolAnswer> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const answer = await this.counts();
      if (answer.fewest >= count || Date.now() > deadline) return this.counts(true);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  private async each(request: (index: number) => ClientRequest): Promise<PoolAnswer> {
    const answers = await Promise.all(
      this.children.map(
        (child, index) =>
          new Promise<Partial<ClientAnswer>>((resolve, reject) => {
            const id = (this.nextID += 1);
            this.pending.set(id, { resolve, reject });
            child.send({ id, request: request(index) });
          }),
      ),
    );
    const sum = (pick: (answer: Partial<ClientAnswer>) => number | undefined) => answers.reduce((total, answer) => total + (pick(answer) ?? 0), 0);
    return {
      sockets: sum((answer) => answer.sockets),
      open: sum((answer) => answer.open),
      fewest: Math.min(...answers.map((answer) => answer.fewest ?? Infinity)),
      frames: sum((answer) => answer.frames),
      lost: sum((answer) => answer.lost),
      resumed: sum((answer) => answer.resumed),
      latency: latencyOf(answers.map((answer) => answer.histogram ?? [])),
    };
  }
}

/** Percentiles of millisecond histograms merged. */
function latencyOf(histograms: number[][]): Latency {
  const merged: number[] = [];
  for (const histogram of histograms) histogram.forEach((count, ms) => (merged[ms] = (merged[ms] ?? 0) + count));
  const samples = merged.reduce((sum, count) => sum + (count ?? 0), 0);
  const at = (quantile: number) => {
    const wanted = Math.min(samples, Math.floor(quantile * samples) + 1);
    let seen = 0;
    for (let ms = 0; ms < merged.length; ms += 1) {
      seen += merged[ms] ?? 0;
      if (seen >= wanted) return ms;
    }
    return 0;
  };
  let max = 0;
  for (let ms = merged.length - 1; ms >= 0; ms -= 1) {
    if (merged[ms]) {
      max = ms;
      break;
    }
  }
  return { p50: at(0.5), p99: at(0.99), max, samples };
}
