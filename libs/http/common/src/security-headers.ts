import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/**
 * The Content-Security-Policy of every answer: helmet's defaults (scripts,
 * styles, fonts and images from the app itself; `data:` images and inline
 * styles, which the API reference at /docs uses) with no framing at all. JSON
 * answers run nothing, so the one policy costs the API nothing and keeps the
 * reference page working. `upgrade-insecure-requests` is left out: the apps
 * serve plain HTTP behind TLS-terminating ingresses and on the cluster
 * network, where it would break the reference page.
 */
const CONTENT_SECURITY_POLICY = {
  useDefaults: true,
  directives: { 'frame-ancestors': ["'none'"], 'upgrade-insecure-requests': null },
};

/**
 * helmet's middleware, built once: it writes its headers on Node's own
 * request and response, so the same function serves Fastify's hooks and the
 * answers the router gives before any hook runs. helmet rather than
 * @fastify/helmet: the plugin sets headers only from an `onRequest` hook, which
 * those router answers (malformed URL, over-long parameter) never reach, and
 * it rebuilds the middleware on every request. Cross-Origin-Resource-Policy
 * governs only no-cors loads: the API's CORS requests are unaffected.
 */
const securityHeaders = helmet({ contentSecurityPolicy: CONTENT_SECURITY_POLICY });

/** Sets the security headers on an answer about to be written (helmet's middleware is synchronous). */
export function applySecurityHeaders(request: IncomingMessage, response: ServerResponse): void {
  securityHeaders(request, response, (error?: unknown) => {
    if (error) throw error;
  });
}
