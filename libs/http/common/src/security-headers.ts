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
 * helmet's headers, worked out once: with this configuration they are the
 * same on every answer (no nonce, no directive computed per request), so
 * helmet's middleware runs once at start-up on a recording response and each
 * answer gets the recorded headers, in helmet's order, on Node's own response
 * (the same function serves Fastify's hooks and the answers the router gives
 * before any hook runs). Running helmet per request rebuilt the
 * Content-Security-Policy text every time. helmet rather than
 * @fastify/helmet: the plugin sets headers only from an `onRequest` hook,
 * which those router answers (malformed URL, over-long parameter) never
 * reach, and it rebuilds the middleware on every request.
 * Cross-Origin-Resource-Policy governs only no-cors loads: the API's CORS
 * requests are unaffected.
 */
const SECURITY_HEADERS = recordedHeaders(helmet({ contentSecurityPolicy: CONTENT_SECURITY_POLICY }));

type HeaderStep = { set: string; value: string } | { remove: string };

function recordedHeaders(middleware: ReturnType<typeof helmet>): readonly HeaderStep[] {
  const steps: HeaderStep[] = [];
  const recorder = {
    setHeader: (name: string, value: string) => steps.push({ set: name, value }),
    removeHeader: (name: string) => steps.push({ remove: name }),
  };
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return steps;
}

/** Sets the security headers on an answer about to be written. */
export function applySecurityHeaders(_request: IncomingMessage, response: ServerResponse): void {
  for (const step of SECURITY_HEADERS) {
    if ('set' in step) response.setHeader(step.set, step.value);
    else response.removeHeader(step.remove);
  }
}
