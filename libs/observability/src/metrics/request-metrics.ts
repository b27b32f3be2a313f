import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformMetrics } from './platform-metrics';

/** The `route` label of requests that matched no route (404s, probes of random paths): one series, whatever the path. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Observes every answered request in `platform_http_request_duration_seconds`,
 * labelled with the route's template (`/v1/tenants/:tenantID/...`), never the
 * raw URL, so the number of series stays bounded whatever clients send.
 *
 * One call from an onResponse hook and nothing else on the request path:
 * Fastify already measures the time (`reply.elapsedTime`, from its onRequest
 * timestamp). createHttpApp calls it from the one onResponse hook it shares
 * with the completion line; `observeRequestDurations` registers it alone.
 */
export function requestDurationObserver(metrics: PlatformMetrics): (request: FastifyRequest, reply: FastifyReply) => void {
  const histogram = metrics.httpRequestDuration;
  return (request, reply) =>
    histogram.observe({ method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE, status: reply.statusCode }, reply.elapsedTime / 1000);
}

/** The request-duration observer as an onResponse hook of its own (a callback: no promise per request). */
export function observeRequestDurations(fastify: FastifyInstance, metrics: PlatformMetrics): void {
  const observe = requestDurationObserver(metrics);
  fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    observe(request, reply);
    done();
  });
}
