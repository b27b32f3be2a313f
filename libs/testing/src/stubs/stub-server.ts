import { IncomingMessage, ServerResponse } from 'node:http';
import { LoopbackServer } from './loopback-server';

/** One request a stub received. */
export interface RecordedCall {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** What the stub answered. */
  status: number;
}

/** Requests a stub holds unanswered until the test lets them through. */
export interface HeldRequests {
  /** Resolves once `count` requests are waiting. */
  reached(count: number): Promise<void>;
  /** Lets every held request (and any later one) be answered. */
  release(): void;
}

export type StubRoute = (request: IncomingMessage, body: string, url: URL) => { status: number; body?: unknown; headers?: Record<string, string> } | undefined;

/**
 * A provider stub on loopback: real HTTP, a log of every call, and fault
 * modes (latency, failure status, connection refused while stopped). Start
 * it again on the same port to play a provider coming back.
 */
export class StubServer extends LoopbackServer {
  readonly calls: RecordedCall[] = [];
  /** Delay before every answer. */
  latencyMs = 0;
  /** When set, every request is answered with this status and an error body. */
  failWithStatus: number | undefined;
  /** Requests received and not answered yet: a caller's wait on this provider, as it happens. */
  inFlight = 0;

  private holding: { waiting: number; gate: Promise<void>; onArrival: Set<() => void> } | undefined;

  constructor(private readonly route: StubRoute) {
    super();
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }


  /** From now on every request waits, unanswered, until `release()`: requests in flight on purpose. */
  hold(): HeldRequests {
    let release!: () => void;
    const state = { waiting: 0, gate: new Promise<void>((resolve) => (release = resolve)), onArrival: new Set<() => void>() };
    this.holding = state;
    return {
      reached: (count) =>
        new Promise<void>((resolve) => {
          const check = () => {
            if (state.waiting < count) return;
            state.onArrival.delete(check);
            resolve();
          };
          state.onArrival.add(check);
          check();
        }),
      release: () => {
        if (this.holding === state) this.holding = undefined;
        release();
      },
    };
  }

  callsTo(method: string, pathPrefix: string): RecordedCall[] {
    return this.calls.filter((call) => call.method === method && call.path.startsWith(pathPrefix));
  }

  protected async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    this.inFlight += 1;
    try {
      await this.answer(request, response);
    } finally {
      this.inFlight -= 1;
    }
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', 'http://stub');
    if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));
    const holding = this.holding;
    if (holding) {
      holding.waiting += 1;
      for (const check of [...holding.onArrival]) check();
      await holding.gate;
    }

    let answer: ReturnType<StubRoute>;
    if (this.failWithStatus !== undefined) {
      answer = { status: this.failWithStatus, body: { error: { type: 'api_error', message: 'stub failure mode' } } };
    } else {
      answer = this.route(request, body, url) ?? { status: 404, body: { error: { type: 'invalid_request_error', message: 'no such route' } } };
    }
    this.calls.push({ method: request.method ?? 'GET', path: url.pathname, headers: request.headers, body, status: answer.status });
    if (response.destroyed) return;
    response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    response.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  }
}
