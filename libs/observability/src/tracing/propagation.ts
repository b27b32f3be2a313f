import { Context, context, propagation, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { isSaneRequestID, REQUEST_ID_HEADER } from '../request-logging';
import { currentActor, currentRequestID, runOutsideRequest, runWithRequestID } from '../request-scope';
import { tracingActive } from './tracing-state';

/**
 * What travels beside a payload from one app (or one moment) to the next:
 * the request id (`x-request-id`), the actor the work acts for
 * (`x-actor`, for the audit log) and, with tracing on, the W3C trace
 * context (`traceparent`, `tracestate`). A string map like HTTP headers,
 * stored as is in transport messages, job data and outbox rows.
 */
export type PropagatedHeaders = Record<string, string>;

const tracer = () => trace.getTracer('@platform/observability');

/** The headers of the work running now, or undefined when there is nothing to pass on. */
export function propagatedHeaders(): PropagatedHeaders | undefined {
  const headers: PropagatedHeaders = {};
  const requestID = currentRequestID();
  if (requestID) headers[REQUEST_ID_HEADER] = requestID;
  const actor = currentActor();
  if (actor) headers[ACTOR_HEADER] = actor;
  if (tracingActive()) propagation.inject(context.active(), headers);
  return Object.keys(headers).length > 0 ? headers : undefined;
}

/** Header of the actor (see RequestInScope.actor). */
export const ACTOR_HEADER = 'x-actor';

/** `kind:uuid`, as AuthGuard records it; anything else is ignored. */
const ACTOR_PATTERN = /^(operator|plugin|pluginConnection):[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The actor carried by `headers`, if it is well formed. */
function actorIn(headers: unknown): string | undefined {
  const value = isHeaders(headers) ? headers[ACTOR_HEADER] : undefined;
  return typeof value === 'string' && ACTOR_PATTERN.test(value) ? value : undefined;
}

/** The request id carried by `headers`, if it is a sane one. */
function requestIdIn(headers: unknown): string | undefined {
  const value = isHeaders(headers) ? headers[REQUEST_ID_HEADER] : undefined;
  return isSaneRequestID(value) ? value : undefined;
}

function isHeaders(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The trace context carried by `headers`, on top of no other: without one
 * (absent or malformed), the work starts a trace of its own rather than
 * joining whatever happens to be running around it.
 */
function contextIn(headers: unknown): Context {
  if (!isHeaders(headers)) return ROOT_CONTEXT;
  const strings = Object.fromEntries(Object.entries(headers).filter(([, value]) => typeof value === 'string')) as PropagatedHeaders;
  return propagation.extract(ROOT_CONTEXT, strings);
}

export interface SpanDescription {
  name: string;
  kind: SpanKind;
  attributes?: Record<string, string | number | boolean>;
}

/**
 * Runs `work` in a span of its own that ends when `work` settles, a failure
 * marking it as an error. With tracing off, runs `work` and nothing else.
 */
export async function inSpan<T>(description: SpanDescription, work: () => Promise<T>): Promise<T> {
  if (!tracingActive()) return work();
  return tracer().startActiveSpan(description.name, { kind: description.kind, attributes: description.attributes }, async (span) => {
    try {
      return await work();
    } catch (error) {
      markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * Continues the work that `headers` came from: runs `work` under the request
 * id they carry and, with tracing on, in a span whose parent is the span that
 * sent them. `work` gets that span (undefined with tracing off) and ends it,
 * for work whose end is not the end of a promise (a transport reply).
 * Headers that are absent (an older sender) or malformed just start afresh:
 * no request id, a trace of its own.
 */
export function continueFrom<T>(headers: unknown, description: SpanDescription, work: (span: Span | undefined) => T): T {
  const requestID = requestIdIn(headers);
  const traced = () => (tracingActive() ? startSpanIn(contextIn(headers), description, work) : work(undefined));
  return requestID ? runWithRequestID(requestID, traced, actorIn(headers)) : runOutsideRequest(traced);
}

function startSpanIn<T>(parent: Context, description: SpanDescription, work: (span: Span) => T): T {
  const span = tracer().startSpan(description.name, { kind: description.kind, attributes: description.attributes }, parent);
  return context.with(trace.setSpan(parent, span), () => work(span));
}

/**
 * Like continueFrom, for work that is one promise (a job, an outbox row): the
 * span ends when it settles. A job's span is a child of the request that
 * enqueued it, so the trace shows what a request caused, even minutes later.
 */
export function continueJobFrom<T>(headers: unknown, description: SpanDescription, work: () => Promise<T>): Promise<T> {
  return continueFrom(headers, description, async (span) => {
    try {
      return await work();
    } catch (error) {
      if (span) markFailed(span, error);
      throw error;
    } finally {
      span?.end();
    }
  });
}

/**
 * Runs `work` outside the request and trace running now. For a timer set
 * during a request that starts work of its own (a worker's next round): it
 * would otherwise carry that request's id and trace into every later round.
 */
export function detachedFromRequest<T>(work: () => T): T {
  return runOutsideRequest(() => (tracingActive() ? context.with(ROOT_CONTEXT, work) : work()));
}

/**
 * Names the HTTP server span of the request running now after its route
 * template (`DELETE /v1/tenants/:tenantID/...`), which the HTTP
 * instrumentation cannot know: traces then group by route, not by method.
 */
export function nameRequestSpan(method: string, route: string | undefined): void {
  if (!tracingActive() || !route) return;
  const span = trace.getActiveSpan();
  span?.updateName(`${method} ${route}`);
  span?.setAttribute('http.route', route);
}

function markFailed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : new Error(String(error)));
  span.setStatus({ code: SpanStatusCode.ERROR });
}

export { SpanKind };
