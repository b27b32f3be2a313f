import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { markTracingStarted } from './tracing-state';

export interface TracingOptions {
  /** The service name when OTEL_SERVICE_NAME does not give one. */
  app: string;
  /** Where spans go; by default the exporter the OTEL_* variables configure (OTLP). */
  spanProcessors?: SpanProcessor[];
}

const HEALTH_PROBES = /^\/health\//;

/**
 * Starts the OpenTelemetry Node SDK: exporter, sampler, resource and
 * propagators (W3C trace context and baggage) come from the standard OTEL_*
 * variables. Must run before the instrumented modules are loaded
 * (see ./index.ts). Instrumented:
 * - HTTP in and out (node:http: the apps' servers, the Stripe SDK);
 * - fetch (undici: the VM, trace, template and Cloudflare providers);
 * - PostgreSQL (pg) and Redis (ioredis), only inside a traced request or
 *   job: pg-boss and the workers poll all the time, and a root span per poll
 *   would bury the traces that matter.
 * Fastify's own instrumentation is left out: its OpenTelemetry package does
 * not support Fastify 5, and the HTTP server span already covers the request.
 */
export function startTracing(options: TracingOptions): NodeSDK {
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ? undefined : options.app,
    spanProcessors: options.spanProcessors,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => HEALTH_PROBES.test(request.url ?? ''),
        headersToSpanAttributes: { server: { requestHeaders: ['x-request-id'] } },
      }),
      new UndiciInstrumentation(),
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  markTracingStarted(sdk);
  return sdk;
}
