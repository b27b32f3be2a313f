import { request as httpRequest } from 'node:http';

/** What openapi-fetch calls to send a request (its `fetch` option): a Request in, a Response out. */
export type RequestSender = (request: Request) => Promise<Response>;

/** The replica never took the request: its port refused the connection. */
const isRefused = (error: unknown) => (error as NodeJS.ErrnoException)?.code === 'ECONNREFUSED';
/**
 * The connection was cut before any answer. Node does this to a connection it
 * accepted but had not read a request from yet when the server closes (an
 * idle connection, for Node): the request was never handled. Balancers
 * (nginx, Envoy, HAProxy) resend such a request to another upstream when it
 * is idempotent, and answer 502 otherwise.
 */
const isCutBeforeAnswer = (error: unknown) => ['ECONNRESET', 'EPIPE'].includes((error as NodeJS.ErrnoException)?.code ?? '');
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Spreads requests over replicas in turn, the way a load balancer in front of
 * them would: each request on a new connection; a connection a replica
 * refuses (stopped, or no longer listening) is tried on the next replica, and
 * so is an idempotent request whose connection was cut before any answer.
 * Any answer a replica gave, whatever it is, is what the client gets.
 *
 * `send` is the typed clients' `fetch`: the request's origin is the
 * balancer's, only its path and query are kept. `servedBy(response)` says
 * which replica gave an answer.
 */
export class RoundRobin {
  private next = 0;
  private readonly replicaOf = new WeakMap<Response, string>();

  constructor(private readonly baseUrls: string[]) {}

  readonly send: RequestSender = async (request) => {
    const first = this.next;
    this.next = (this.next + 1) % this.baseUrls.length;
    const idempotent = IDEMPOTENT.has(request.method.toUpperCase());
    // Read once: a request refused by one replica is sent again, body and all, to the next.
    const body = await bodyOf(request);
    let lastError: unknown;
    for (let offset = 0; offset < this.baseUrls.length; offset += 1) {
      const baseUrl = this.baseUrls[(first + offset) % this.baseUrls.length];
      try {
        const response = await sendOnOwnConnection(baseUrl, request, body);
        this.replicaOf.set(response, baseUrl);
        return response;
      } catch (error) {
        if (!isRefused(error) && !(idempotent && isCutBeforeAnswer(error))) throw error;
        lastError = error;
      }
    }
    throw lastError;
  };

  /** The base URL of the replica that gave `response` (the `response` of a typed-client call). */
  servedBy(response: Response): string {
    const replica = this.replicaOf.get(response);
    if (replica === undefined) throw new Error(`${response.url || 'this response'} was not answered through this balancer`);
    return replica;
  }
}

/** A typed client's `fetch` that sends every request to the replica at `baseUrl`, on a connection of its own. */
export function pinnedTo(baseUrl: string): RequestSender {
  return async (request) => sendOnOwnConnection(baseUrl, request, await bodyOf(request));
}

async function bodyOf(request: Request): Promise<Buffer | undefined> {
  return request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
}

/** Statuses whose answer has no body (the Response constructor refuses one). */
const BODYLESS = new Set([101, 204, 205, 304]);

/**
 * `request`'s method, path, query, headers and `body` on a new connection to
 * `baseUrl` (no keep-alive, unlike the global fetch's pool: a replica that
 * stops must not be reached through a connection opened before).
 */
function sendOnOwnConnection(baseUrl: string, request: Request, body: Buffer | undefined): Promise<Response> {
  const { pathname, search } = new URL(request.url);
  const headers = Object.fromEntries(request.headers);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${baseUrl}${pathname}${search}`, { method: request.method, headers, agent: false }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () => {
        const status = incoming.statusCode ?? 0;
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) {
          for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(name, one);
        }
        resolve(new Response(BODYLESS.has(status) ? null : Buffer.concat(chunks), { status, headers: responseHeaders }));
      });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
