import { request as httpRequest } from 'node:http';
import { JsonResponse, RequestOptions } from '@platform/testing';

/** An answer, and which replica gave it. */
export interface BalancedResponse<T = any> extends JsonResponse<T> {
  servedBy: string;
}

const isRefused = (error: unknown) => (error as NodeJS.ErrnoException)?.code === 'ECONNREFUSED';

/**
 * Spreads requests over replicas in turn, the way a load balancer in front of
 * them would: each request on a new connection, and a connection the replica
 * refuses (stopped, or no longer listening) is tried on the next replica. A
 * request that reached a replica is never resent: its answer, whatever it is,
 * is what the client gets.
 */
export class RoundRobin {
  private next = 0;

  constructor(private readonly baseUrls: string[]) {}

  async request<T = any>(path: string, options: RequestOptions = {}): Promise<BalancedResponse<T>> {
    let lastError: unknown;
    for (let tried = 0; tried < this.baseUrls.length; tried += 1) {
      const baseUrl = this.baseUrls[this.next];
      this.next = (this.next + 1) % this.baseUrls.length;
      try {
        return { ...(await sendOnNewConnection<T>(baseUrl, path, options)), servedBy: baseUrl };
      } catch (error) {
        if (!isRefused(error)) throw error;
        lastError = error;
      }
    }
    throw lastError;
  }
}

/** One request on a connection of its own (no keep-alive), answered as JSON when it is JSON. */
export function sendOnNewConnection<T = any>(baseUrl: string, path: string, options: RequestOptions = {}): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${baseUrl}${path}`, { method: options.method ?? 'GET', headers, agent: false }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          // not JSON: keep the text
        }
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') responseHeaders.set(name, value);
        resolve({ status: incoming.statusCode ?? 0, headers: responseHeaders, body: parsed as T });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
