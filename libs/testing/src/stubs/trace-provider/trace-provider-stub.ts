import { IncomingMessage, ServerResponse } from 'node:http';
import { LoopbackServer } from '../loopback-server';

/**
 * A processing-trace provider on loopback speaking the platform's protocol
 * (docs/protocols/processing-traces.openapi.yaml): the list and read calls,
 * with fault modes. What it answers comes from its `traces` behaviour: a
 * script set by a test (ScriptedTraces) or the sandbox's demo providers.
 */

export interface ListedTraceJson {
  messageID: string;
  messageFingerprint: string;
  traceRef: string;
  startedAt: string;
  durationMs: number;
  status: string;
  stepCount: number;
}

export interface TraceListJson {
  sessionTraceRef?: string;
  messages: ListedTraceJson[];
}

/** One trace of a read answer; `steps` and `details` as in the protocol (free-form here, so tests can send garbage). */
export interface ReadTraceJson {
  traceRef: string;
  status: string;
  processStatus?: string;
  startedAt?: string;
  durationMs?: number;
  steps?: unknown[];
  details?: unknown[];
}

export interface TraceBehaviour {
  list(tenantID: string, sessionID: string): TraceListJson | Promise<TraceListJson>;
  read(tenantID: string, sessionID: string, traceRefs: string[]): ReadTraceJson[] | Promise<ReadTraceJson[]>;
}

/**
 * How the provider misbehaves: `status500` answers 500, `malformed` answers
 * text that is not JSON, `garbage` answers JSON that is not the protocol,
 * `hang` never answers (until stopped).
 */
export type TraceProviderFault = 'status500' | 'malformed' | 'garbage' | 'hang';

export interface TraceProviderCall {
  method: string;
  path: string;
  authorization: string | undefined;
  body: string;
  tenantID: string;
  sessionID: string;
}

const ROUTE = /^(.*)\/tenants\/([^/]+)\/sessions\/([^/]+)\/traces(\/read)?$/;

export class TraceProviderStub extends LoopbackServer {
  readonly calls: TraceProviderCall[] = [];
  latencyMs = 0;
  fault: TraceProviderFault | undefined;
  /** Checks the credential of each call; a rejection answers 401. */
  verify: ((authorization: string | undefined, call: TraceProviderCall) => Promise<void>) | undefined;

  constructor(
    readonly traces: TraceBehaviour,
    /** Path prefix of the protocol (the plugin's endpoint URL is `url` + prefix). */
    private readonly prefix = '',
  ) {
    super();
  }

  /** The endpoint URL to declare on the plugin. */
  get url(): string {
    return `http://127.0.0.1:${this.port}${this.prefix}`;
  }


  callsOf(kind: 'list' | 'read'): TraceProviderCall[] {
    return this.calls.filter((call) => (kind === 'read') === call.path.endsWith('/read'));
  }

  protected async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = new URL(request.url ?? '/', 'http://stub').pathname;
    const match = ROUTE.exec(path);
    const reply = (status: number, text: string) => {
      if (response.destroyed) return;
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(text);
    };
    const isRead = match?.[4] !== undefined;
    if (!match || match[1] !== this.prefix || request.method !== (isRead ? 'POST' : 'GET')) return reply(404, '{"error":"no such route"}');
    const call: TraceProviderCall = {
      method: request.method,
      path,
      authorization: request.headers.authorization,
      body,
      tenantID: decodeURIComponent(match[2]),
      sessionID: decodeURIComponent(match[3]),
    };
    this.calls.push(call);
    if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));

    if (this.fault === 'hang') return;
    if (this.fault === 'status500') return reply(500, '{"error":"internal"}');
    if (this.fault === 'malformed') return reply(200, '{"messages": [ {"messageID": ');
    if (this.fault === 'garbage') return reply(200, JSON.stringify({ hello: 'world', messages: 'none', traces: [{ what: 1 }] }));
    if (this.verify) {
      try {
        await this.verify(call.authorization, call);
      } catch {
        return reply(401, '{"error":"invalid credential"}');
      }
    }
    try {
      if (!isRead) return reply(200, JSON.stringify(await this.traces.list(call.tenantID, call.sessionID)));
      const { traceRefs } = JSON.parse(body) as { traceRefs: string[] };
      return reply(200, JSON.stringify({ traces: await this.traces.read(call.tenantID, call.sessionID, traceRefs) }));
    } catch {
      return reply(500, '{"error":"internal"}');
    }
  }
}

/** Traces of a scripted provider, as a test sets them up. */
export interface ScriptedTrace extends ListedTraceJson {
  sessionID: string;
  /** What a read of this trace answers; by default a ready, succeeded trace with `stepCount` plain steps. */
  read?: Omit<ReadTraceJson, 'traceRef'>;
}

/** A provider's data, set by a test: traces per session and what reading them answers. */
export class ScriptedTraces implements TraceBehaviour {
  private readonly traces: ScriptedTrace[] = [];
  sessionTraceRef: string | undefined;

  add(trace: ScriptedTrace): this {
    this.traces.push(trace);
    return this;
  }

  /** Changes what reading a trace answers (e.g. a running trace finishing). */
  setRead(traceRef: string, read: Omit<ReadTraceJson, 'traceRef'>): void {
    const trace = this.traces.find((candidate) => candidate.traceRef === traceRef);
    if (!trace) throw new Error(`no scripted trace ${traceRef}`);
    trace.read = read;
  }

  list(_tenantID: string, sessionID: string): TraceListJson {
    const messages = this.traces
      .filter((trace) => trace.sessionID === sessionID)
      .map(({ messageID, messageFingerprint, traceRef, startedAt, durationMs, status, stepCount }) => ({
        messageID,
        messageFingerprint,
        traceRef,
        startedAt,
        durationMs,
        status,
        stepCount,
      }));
    return this.sessionTraceRef === undefined ? { messages } : { sessionTraceRef: this.sessionTraceRef, messages };
  }

  read(_tenantID: string, sessionID: string, traceRefs: string[]): ReadTraceJson[] {
    return traceRefs.map((traceRef) => {
      const trace = this.traces.find((candidate) => candidate.traceRef === traceRef && candidate.sessionID === sessionID);
      if (!trace) return { traceRef, status: 'not_found' };
      return { traceRef, ...(trace.read ?? defaultRead(trace)) };
    });
  }
}

function defaultRead(trace: ScriptedTrace): Omit<ReadTraceJson, 'traceRef'> {
  const start = Date.parse(trace.startedAt);
  const each = trace.stepCount > 0 ? Math.floor(trace.durationMs / trace.stepCount) : 0;
  return {
    status: 'ready',
    processStatus: trace.status,
    startedAt: trace.startedAt,
    durationMs: trace.durationMs,
    steps: Array.from({ length: trace.stepCount }, (_, index) => ({
      stepID: `${trace.traceRef}-step-${index + 1}`,
      title: `Step ${index + 1}`,
      category: 'intention',
      status: 'succeeded',
      startedAt: new Date(start + index * each).toISOString(),
      durationMs: each,
      details: [],
      metrics: [],
    })),
    details: [],
  };
}
