import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { ConsoleConfig, contentSecurityPolicy } from './console-config';

/**
 * The console's static server: the built assets, /config.json from the
 * deploy-time configuration, /health/live and /health/ready, and the headers
 * a browser needs to hold the page to its policy. Nothing else: the page
 * talks to the platform's APIs directly (CORS), never through this server.
 */
export interface ConsoleServerOptions {
  /** The directory `npm run build:console` wrote (index.html, assets/). */
  assetsDir: string;
  /** Read at each request, so a test can point the page at apps it starts afterwards. */
  config: () => ConsoleConfig;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

function securityHeaders(response: ServerResponse, config: ConsoleConfig): void {
  response.setHeader('content-security-policy', contentSecurityPolicy(config));
  response.setHeader('x-content-type-options', 'nosniff');
  response.setHeader('referrer-policy', 'no-referrer');
  response.setHeader('cross-origin-opener-policy', 'same-origin');
  response.setHeader('x-frame-options', 'DENY');
  response.setHeader('permissions-policy', 'camera=(), microphone=(), geolocation=()');
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  response.end(body);
}

/** A file under the assets directory, or undefined (a path escaping it included). */
async function fileUnder(root: string, urlPath: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const path = normalize(join(root, decoded));
  if (path !== root && !path.startsWith(root + sep)) return undefined;
  const found = await stat(path).catch(() => undefined);
  return found?.isFile() ? path : undefined;
}

export function createConsoleServer(options: ConsoleServerOptions): Server {
  const root = normalize(options.assetsDir);
  return createServer((request: IncomingMessage, response: ServerResponse) => {
    void handle(request, response).catch(() => {
      if (!response.headersSent) send(response, 500, 'text/plain; charset=utf-8', 'Internal error');
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const config = options.config();
    securityHeaders(response, config);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('allow', 'GET, HEAD');
      return send(response, 405, 'text/plain; charset=utf-8', 'Method not allowed');
    }
    const path = new URL(request.url ?? '/', 'http://console').pathname;
    if (path === '/health/live' || path === '/health/ready') return send(response, 200, 'application/json; charset=utf-8', '{"status":"ok"}');
    if (path === '/config.json') return send(response, 200, 'application/json; charset=utf-8', JSON.stringify(config));
    // A file that exists is served; any other path is the application's own route (index.html), except a missing asset.
    const file = (await fileUnder(root, path)) ?? (path.startsWith('/assets/') ? undefined : await fileUnder(root, '/index.html'));
    if (!file) return send(response, 404, 'text/plain; charset=utf-8', 'Not found');
    const hashed = file.includes(`${sep}assets${sep}`);
    response.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      // Built assets carry their content's hash in their name; index.html must be asked again to find new ones.
      'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    if (request.method === 'HEAD') return void response.end();
    createReadStream(file).pipe(response);
  }
}
