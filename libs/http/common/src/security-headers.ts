import { type IncomingMessage, ServerResponse, validateHeaderName, validateHeaderValue } from 'node:http';
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

/** A response's headers as Node keeps them: by lower-case name, the name as given and its value. */
type OutgoingHeaders = Record<string, readonly [string, string]>;

/**
 * The symbol under which Node's ServerResponse keeps the headers `setHeader`
 * stored (`kOutHeaders`, not exported), found once on a response made for it;
 * undefined if a Node.js release ever names it otherwise (then every header is
 * set one by one, as before).
 */
const OUT_HEADERS = Object.getOwnPropertySymbols(new ServerResponse({ method: 'GET', httpVersionMajor: 1, httpVersionMinor: 1, headers: {} } as IncomingMessage)).find(
  (symbol) => symbol.description === 'kOutHeaders',
);

/**
 * The security headers as one prepared block: exactly what helmet's steps
 * leave in a fresh response's headers through `setHeader` (same names, same
 * order, so the same bytes on the wire), each name and value validated here
 * once as `setHeader` validates them. Each answer gets a copy of the block in
 * one step instead of ~10 `setHeader` calls, each validating its name and
 * value again (a visible share of a small read's CPU).
 */
/** Whether this Node.js release lets answers take the prepared block (else: one by one). */
export const SECURITY_HEADERS_PREPARED = OUT_HEADERS !== undefined;

const PREPARED_BLOCK: OutgoingHeaders = preparedBlock(SECURITY_HEADERS);

function preparedBlock(steps: readonly HeaderStep[]): OutgoingHeaders {
  const block: Record<string, readonly [string, string]> = Object.create(null);
  for (const step of steps) {
    if ('set' in step) {
      validateHeaderName(step.set);
      validateHeaderValue(step.set, step.value);
      block[step.set.toLowerCase()] = Object.freeze([step.set, step.value] as const);
    } else {
      delete block[step.remove.toLowerCase()];
    }
  }
  return Object.freeze(block);
}

/**
 * A response's copy of the block, made by a constructor that stores the same
 * fields in the same order every time: V8 then builds each copy as a fast
 * object of one hidden class, where copying the block's fields into an empty
 * null-prototype object (`Object.assign`) made a dictionary, several times
 * slower to fill and to walk. The prototype has no properties at all (not even
 * `constructor`), as a null-prototype object, so no header name can hit one.
 */
const PreparedHeaders = preparedHeadersConstructor(PREPARED_BLOCK);

function preparedHeadersConstructor(block: OutgoingHeaders): new () => OutgoingHeaders {
  const names = Object.keys(block);
  const entries = names.map((name) => block[name]);
  function Copy(this: Record<string, readonly [string, string]>): void {
    for (let index = 0; index < names.length; index++) this[names[index]] = entries[index];
  }
  Copy.prototype = Object.create(null) as object;
  return Copy as unknown as new () => OutgoingHeaders;
}

/**
 * Sets the security headers on an answer about to be written: the prepared
 * block when the response has no header yet (every answer Fastify's onRequest
 * hook sees), else one by one on top of what is there.
 */
export function applySecurityHeaders(_request: IncomingMessage, response: ServerResponse): void {
  const fields = response as unknown as Record<symbol, OutgoingHeaders | null>;
  if (OUT_HEADERS !== undefined && fields[OUT_HEADERS] === null && !response.headersSent) {
    fields[OUT_HEADERS] = new PreparedHeaders();
    return;
  }
  setOneByOne(response);
}

/** The security headers through `setHeader`, one by one, in helmet's order. */
export function setOneByOne(response: ServerResponse): void {
  for (const step of SECURITY_HEADERS) {
    if ('set' in step) response.setHeader(step.set, step.value);
    else response.removeHeader(step.remove);
  }
}
