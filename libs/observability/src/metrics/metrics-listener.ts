import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { once } from 'node:events';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PlatformMetrics } from './platform-metrics';

export const METRICS_PATH = '/metrics';

/**
 * `GET /metrics` on a port of its own (METRICS_PORT), apart from the API's:
 * the Service exposes it to Prometheus inside the cluster, the Ingress never
 * routes to it, and it stays outside the API's credentials, rate limits and
 * request metrics (a scrape is not a client request). A bare node:http server
 * is enough for one read-only path.
 */
@Injectable()
export class MetricsListener implements OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server: Server | undefined;

  constructor(private readonly metrics: PlatformMetrics) {}

  /** Starts serving on `port` (0: any free port, for tests and benchmarks) and answers the URL of /metrics. */
  async listen(port: number, host = '0.0.0.0'): Promise<string> {
    const server = createServer((request, response) => void this.answer(request, response));
    server.listen(port, host);
    await once(server, 'listening').catch((error: Error) => {
      throw new Error(`METRICS_PORT ${port}: ${error.message}`, { cause: error });
    });
    this.server = server;
    const address = server.address() as AddressInfo;
    const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}${METRICS_PATH}`;
    this.logger.log(`metrics at ${url}`);
    return url;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = once(server, 'close');
    server.close();
    // A scraper's kept-alive connection would otherwise hold the close until it times out.
    server.closeAllConnections();
    await closed;
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '').split('?')[0];
    if (path !== METRICS_PATH) return this.reply(response, 404, 'text/plain', 'not found: metrics are at /metrics\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') return this.reply(response, 405, 'text/plain', 'GET only\n', { allow: 'GET, HEAD' });
    try {
      this.reply(response, 200, this.metrics.contentType, await this.metrics.render());
    } catch (error) {
      this.logger.error({ err: error }, 'metrics could not be rendered');
      this.reply(response, 500, 'text/plain', 'metrics could not be rendered\n');
    }
  }

  private reply(response: ServerResponse, status: number, contentType: string, body: string, headers: Record<string, string> = {}): void {
    response.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body), ...headers });
    response.end(response.req.method === 'HEAD' ? undefined : body);
  }
}
