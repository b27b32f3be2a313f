import fastifyCors, { FastifyCorsOptions } from '@fastify/cors';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';

/**
 * The browser origins allowed to call an app. Empty means CORS is off: no
 * plugin is registered and every answer is what it was without it.
 */
export interface CorsPolicy {
  allowedOrigins: readonly string[];
  /** How long a browser may reuse a preflight answer. */
  maxAgeSeconds: number;
}

/** The request headers the API reads; a browser may send these cross-origin. */
const ALLOWED_REQUEST_HEADERS = ['Authorization', 'Content-Type', 'Accept-Language', 'X-Request-Id', 'Idempotency-Key'];
/** The response headers a browser client needs besides the CORS-safelisted ones. */
const EXPOSED_RESPONSE_HEADERS = ['X-Request-Id', 'Retry-After', 'Allow', 'Idempotent-Replayed', 'RateLimit-Policy', 'RateLimit'];
const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The catch-all OPTIONS route @fastify/cors adds so preflights reach its hook; it answers no API method. */
export const CORS_PREFLIGHT_ROUTE = { method: 'OPTIONS', url: '*' } as const;

/**
 * Registers @fastify/cors when the policy allows any origin.
 *
 * Only a request from an allowed origin gets CORS headers, and only an OPTIONS
 * request that is a real preflight (it names `Access-Control-Request-Method`)
 * is answered 204 by the plugin. Any other OPTIONS request, and every request
 * from another origin, goes on to the routes as if CORS were off, so it gets
 * the same envelope answers (405 1905 with `Allow`, 404 1904) as before
 * instead of the plugin's plain-text 400. The browser then refuses the answer
 * for lack of `Access-Control-Allow-Origin`.
 */
export async function registerCors(app: NestFastifyApplication, policy: CorsPolicy): Promise<void> {
  if (policy.allowedOrigins.length === 0) return;
  const allowed = new Set(policy.allowedOrigins);
  const enabled: FastifyCorsOptions = {
    origin: true, // reflects the request's origin, which is known to be allowed here
    methods: ALLOWED_METHODS,
    allowedHeaders: ALLOWED_REQUEST_HEADERS,
    exposedHeaders: EXPOSED_RESPONSE_HEADERS,
    // Credentials are bearer tokens in a header, never cookies.
    credentials: false,
    maxAge: policy.maxAgeSeconds,
  };
  const disabled: FastifyCorsOptions = { origin: false };
  const corsFor = (request: FastifyRequest): FastifyCorsOptions => {
    const origin = request.headers.origin;
    if (origin === undefined || !allowed.has(origin)) return disabled;
    const isPreflight = request.headers['access-control-request-method'] !== undefined;
    return request.method === 'OPTIONS' && !isPreflight ? disabled : enabled;
  };
  await app.register(fastifyCors, { hook: 'onRequest', delegator: (request, callback) => callback(null, corsFor(request)) });
}
