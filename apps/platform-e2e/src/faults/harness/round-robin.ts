import { request as httpRequest } from 'node:http';
import { decodeBody, encodeRequest, JsonResponse, RequestOptions } from '@platform/testing';

/** An answer, and which replica gave it. */
export interface BalancedResponse<T = any> extends JsonResponse<T> {
  servedBy: string;
}

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
 */
export class RoundRobin {
  private next = 0;

  constructor(private readonly baseUrls: string[]) {}

  async request<T = any>(path: string, options: RequestOptions = {}): Promise<BalancedResponse<T>> {
    const first = this.next;
    this.next = (this.next + 1) % this.baseUrls.length;
    const idempotent = IDEMPOTENT.has((options.method ?? 'GET').toUpperCase());
    let lastError: unknown;
    for (let offset = 0; offset < this.baseUrls.length; offset += 1) {
      const baseUrl = this.baseUrls[(first + offset) % this.baseUrls.length];
      try {
        return { ...(await sendOnNewConnection<T>(baseUrl, path, options)), servedBy: baseUrl };
      } catch (error) {
        if (!isRefused(error) && !(idempotent && isCutBeforeAnswer(error))) throw error;
        lastError = error;
      }
    }
    throw lastError;
  }
}

/** One request on a connection of its own (no keep-alive), answered as JSON when it is JSON. */
export function sendOnNewConnection<T = any>(baseUrl: string, path: string, options: RequestOptions = {}): Promise<JsonResponse<T>> {
  const { headers, body } = encodeRequest(options);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${baseUrl}${path}`, { method: options.method ?? 'GET', headers, agent: false }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') responseHeaders.set(name, value);
        resolve({ status: incoming.statusCode ?? 0, headers: responseHeaders, body: decodeBody<T>(Buffer.concat(chunks).toString('utf8')) });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
