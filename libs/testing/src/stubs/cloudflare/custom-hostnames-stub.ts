import { randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { CUSTOM_HOSTNAME_STAGES, CustomHostnameStage, nextStage } from './custom-hostname-stages';

/** Which call of the custom-hostnames API a request was. */
export type CustomHostnameOperation = 'create' | 'get' | 'list' | 'delete';

/**
 * How the stub misbehaves on purpose:
 * - `server-error`: HTTP 500 with `success: false` in the envelope;
 * - `envelope-error`: HTTP 200 whose envelope says `success: false` and carries no result;
 * - `malformed`: HTTP 200 with a body that is not the envelope;
 * - `hang`: never answers (the client's timeout must fire);
 * - `reset`: the connection is dropped without an answer.
 */
export type FailureMode = 'server-error' | 'envelope-error' | 'malformed' | 'hang' | 'reset';

export interface StubCall {
  operation: CustomHostnameOperation;
  /** The hostname concerned, when the stub knows it. */
  hostname?: string;
  id?: string;
  /** The HTTP status answered (0 when the stub did not answer). */
  status: number;
}

export interface CustomHostnamesStubOptions {
  /** The token the stub expects as `Authorization: Bearer`. */
  apiToken: string;
  zoneID: string;
  /** Every read of a hostname moves it one stage along the happy path (the sandbox's mode). */
  autoAdvance?: boolean;
  host?: string;
  port?: number;
}

interface StoredHostname {
  id: string;
  hostname: string;
  stage: CustomHostnameStage;
  sslID: string;
  ownershipToken: string;
  createdAt: string;
}

/** A request the stub holds until the test lets it through. */
export interface HeldRequest {
  /** Resolves when the held request has arrived. */
  reached: Promise<void>;
  /** Lets the held request be served. */
  release(): void;
}

interface Hold {
  operation: CustomHostnameOperation;
  arrived: () => void;
  gate: Promise<void>;
}

interface PlannedFailure {
  mode: FailureMode;
  operations?: CustomHostnameOperation[];
  remaining: number;
}

/** Hostnames the real API refuses (docs/external-providers.md, Custom hostnames): example domains and reserved endings. */
const REFUSED_HOSTNAME = /(^|\.)(example\.(com|net|org)|test|example|invalid|localhost)$/;

class StubAnswer {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

const envelope = (result: unknown, extra: Record<string, unknown> = {}) => ({ success: true, errors: [], messages: [], result, ...extra });
const failure = (status: number, code: number, message: string) => new StubAnswer(status, { success: false, errors: [{ code, message }], messages: [], result: null });

/**
 * A loopback server speaking the subset of Cloudflare's API v4 that the
 * helpdesk's custom-hostname adapter uses (docs/external-providers.md): create, get, list by
 * exact hostname and delete custom hostnames of one zone, every answer in the
 * `{success, errors, messages, result}` envelope. Tests drive the hostnames'
 * stages, plan failures and latency, and read the calls it received.
 */
export class CustomHostnamesStub {
  /** What the SDK takes as `baseURL`: it appends `/zones/...`. */
  readonly baseUrl: string;
  readonly calls: StubCall[] = [];
  /** Added before every answer, in milliseconds. */
  latencyMs = 0;
  autoAdvance: boolean;

  private readonly hostnames = new Map<string, StoredHostname>();
  private failures: PlannedFailure[] = [];
  private holds: Hold[] = [];

  private constructor(
    private readonly server: Server,
    private readonly options: CustomHostnamesStubOptions,
  ) {
    const address = server.address() as AddressInfo;
    this.baseUrl = `http://${options.host ?? '127.0.0.1'}:${address.port}/client/v4`;
    this.autoAdvance = options.autoAdvance ?? false;
  }

  static async start(options: CustomHostnamesStubOptions): Promise<CustomHostnamesStub> {
    // The handler needs the stub, which needs the listening server's port.
    const holder: { stub?: CustomHostnamesStub } = {};
    const server = createServer((request, response) => void holder.stub?.handle(request, response));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
    holder.stub = new CustomHostnamesStub(server, options);
    return holder.stub;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Forgets every hostname, planned failure, call and latency. */
  reset(): void {
    this.hostnames.clear();
    this.failures = [];
    this.holds = [];
    this.calls.length = 0;
    this.latencyMs = 0;
  }

  /** Puts a hostname at a stage of its life at the provider. */
  setStage(hostname: string, stage: CustomHostnameStage): void {
    this.stored(hostname).stage = stage;
  }

  /** Moves a hostname one step along the happy path; answers the new stage. */
  advance(hostname: string): CustomHostnameStage {
    const stored = this.stored(hostname);
    stored.stage = nextStage(stored.stage);
    return stored.stage;
  }

  /** The provider's record of a hostname, as the API would show it, or undefined. */
  find(hostname: string): Record<string, unknown> | undefined {
    const stored = [...this.hostnames.values()].find((entry) => entry.hostname === hostname);
    return stored && this.render(stored);
  }

  /** Deletes a hostname behind the platform's back (e.g. removed in the provider's dashboard). */
  forget(hostname: string): void {
    const stored = this.stored(hostname);
    this.hostnames.delete(stored.id);
  }

  /** The next `count` matching requests fail in `mode` (all operations unless listed). */
  failNext(mode: FailureMode, options: { count?: number; operations?: CustomHostnameOperation[] } = {}): void {
    this.failures.push({ mode, operations: options.operations, remaining: options.count ?? 1 });
  }

  /** Every request from now on fails in `mode` until `recover()`. */
  goDown(mode: FailureMode = 'server-error'): void {
    this.failures = [{ mode, remaining: Number.POSITIVE_INFINITY }];
  }

  recover(): void {
    this.failures = [];
  }

  /** The next request of `operation` waits, unanswered, until `release()`: lets a test look at the world meanwhile. */
  holdNext(operation: CustomHostnameOperation): HeldRequest {
    let arrived!: () => void;
    let release!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    this.holds.push({ operation, arrived, gate });
    return { reached, release };
  }

  private stored(hostname: string): StoredHostname {
    const stored = [...this.hostnames.values()].find((entry) => entry.hostname === hostname);
    if (!stored) throw new Error(`the stub holds no custom hostname ${hostname}`);
    return stored;
  }

  private render(stored: StoredHostname): Record<string, unknown> {
    const state = CUSTOM_HOSTNAME_STAGES[stored.stage];
    return {
      id: stored.id,
      hostname: stored.hostname,
      status: state.status,
      verification_errors: state.verificationErrors.length > 0 ? [...state.verificationErrors] : undefined,
      ownership_verification: { type: 'txt', name: `_cf-custom-hostname.${stored.hostname}`, value: stored.ownershipToken },
      ownership_verification_http: {
        http_url: `http://${stored.hostname}/.well-known/cf-custom-hostname-challenge/${stored.id}`,
        http_body: stored.ownershipToken,
      },
      ssl: {
        id: stored.sslID,
        type: 'dv',
        method: 'http',
        status: state.sslStatus,
        certificate_authority: 'google',
        validation_errors: state.sslValidationErrors.length > 0 ? state.sslValidationErrors.map((message) => ({ message })) : undefined,
      },
      created_at: stored.createdAt,
    };
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const url = new URL(request.url ?? '/', 'http://stub');
    const route = this.route(request.method ?? 'GET', url.pathname);
    const call: StubCall = { operation: route?.operation ?? 'get', status: 0, id: route?.id };
    if (route) this.calls.push(call);
    if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));
    const hold = route && this.holds.find((entry) => entry.operation === route.operation);
    if (hold) {
      this.holds = this.holds.filter((entry) => entry !== hold);
      hold.arrived();
      await hold.gate;
    }

    const planned = route && this.takeFailure(route.operation);
    if (planned === 'hang') return; // the socket stays open until the client gives up or the stub closes
    if (planned === 'reset') {
      request.socket.destroy();
      return;
    }
    let answer: StubAnswer;
    if (planned === 'server-error') answer = failure(500, 10000, 'Internal server error');
    else if (planned === 'envelope-error') answer = new StubAnswer(200, { success: false, errors: [{ code: 10000, message: 'Temporary failure' }], messages: [], result: null });
    else if (planned === 'malformed') answer = new StubAnswer(200, '<html>bad gateway</html>');
    else if (request.headers.authorization !== `Bearer ${this.options.apiToken}`) answer = failure(403, 10000, 'Authentication error');
    else if (!route || route.zoneID !== this.options.zoneID) answer = failure(404, 7003, 'Could not route to this path');
    else answer = this.serve(route, url, body, call);

    call.status = answer.status;
    const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    response.writeHead(answer.status, { 'content-type': typeof answer.body === 'string' ? 'text/html' : 'application/json' });
    response.end(text);
  }

  private route(method: string, pathname: string): { operation: CustomHostnameOperation; zoneID: string; id?: string } | undefined {
    const match = /^\/client\/v4\/zones\/([^/]+)\/custom_hostnames(?:\/([^/]+))?\/?$/.exec(pathname);
    if (!match) return undefined;
    const [, zoneID, id] = match;
    if (method === 'POST' && !id) return { operation: 'create', zoneID };
    if (method === 'GET' && !id) return { operation: 'list', zoneID };
    if (method === 'GET' && id) return { operation: 'get', zoneID, id: decodeURIComponent(id) };
    if (method === 'DELETE' && id) return { operation: 'delete', zoneID, id: decodeURIComponent(id) };
    return undefined;
  }

  private takeFailure(operation: CustomHostnameOperation): FailureMode | undefined {
    const planned = this.failures.find((entry) => entry.remaining > 0 && (!entry.operations || entry.operations.includes(operation)));
    if (!planned) return undefined;
    planned.remaining -= 1;
    return planned.mode;
  }

  private serve(route: { operation: CustomHostnameOperation; id?: string }, url: URL, body: string, call: StubCall): StubAnswer {
    switch (route.operation) {
      case 'create': {
        let hostname: unknown;
        try {
          hostname = (JSON.parse(body) as { hostname?: unknown }).hostname;
        } catch {
          return failure(400, 1000, 'Invalid JSON');
        }
        if (typeof hostname !== 'string' || hostname === '') return failure(400, 1407, 'Invalid custom hostname.');
        call.hostname = hostname;
        if (REFUSED_HOSTNAME.test(hostname)) return failure(400, 1411, 'Custom hostnames may not contain reserved or prohibited domain names.');
        if ([...this.hostnames.values()].some((entry) => entry.hostname === hostname)) return failure(409, 1406, 'Duplicate custom hostname found.');
        const stored: StoredHostname = {
          id: randomUUID(),
          hostname,
          stage: 'cname_missing',
          sslID: randomUUID(),
          ownershipToken: randomUUID(),
          createdAt: new Date().toISOString(),
        };
        this.hostnames.set(stored.id, stored);
        call.id = stored.id;
        return new StubAnswer(200, envelope(this.render(stored)));
      }
      case 'get': {
        const stored = this.hostnames.get(route.id ?? '');
        if (!stored) return failure(404, 1436, 'The custom hostname was not found.');
        call.hostname = stored.hostname;
        if (this.autoAdvance) stored.stage = nextStage(stored.stage);
        return new StubAnswer(200, envelope(this.render(stored)));
      }
      case 'list': {
        const exact = url.searchParams.get('hostname.exact') ?? url.searchParams.get('hostname');
        call.hostname = exact ?? undefined;
        const found = [...this.hostnames.values()].filter((entry) => exact === null || entry.hostname === exact).map((entry) => this.render(entry));
        return new StubAnswer(200, envelope(found, { result_info: { page: 1, per_page: 50, count: found.length, total_count: found.length, total_pages: 1 } }));
      }
      case 'delete': {
        const stored = this.hostnames.get(route.id ?? '');
        if (!stored) return failure(404, 1436, 'The custom hostname was not found.');
        call.hostname = stored.hostname;
        this.hostnames.delete(stored.id);
        // The real API answers a deletion with the bare `{id}`, not the envelope (docs/external-providers.md).
        return new StubAnswer(200, { id: stored.id });
      }
    }
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
