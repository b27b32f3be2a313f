import type { NodeSDK } from '@opentelemetry/sdk-node';
import type { TracingOptions } from './start-tracing';
import { tracingConfigured } from './tracing-settings';

export type { TracingOptions } from './start-tracing';
export { tracingConfigured } from './tracing-settings';

/**
 * Starts tracing when the OTEL_* variables ask for it (tracing-settings.ts).
 * Each app calls this from the first module its main loads, before anything
 * that requires http, pg or ioredis, so the instrumentation sees those modules
 * load. With tracing off the SDK is not even required.
 */
export function startTracingWhenConfigured(app: string): void {
  if (tracingConfigured()) startTracing({ app });
}

/** Starts the SDK (start-tracing.ts, `@platform/tracing-sdk`), loading it only now. */
function startTracing(options: TracingOptions): NodeSDK {
  // A synchronous require on purpose: an import would be hoisted (loading the SDK
  // with tracing off), and a dynamic import() would finish after main's own imports.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loads the SDK only when tracing is on, before main's imports
  const sdk = require('./start-tracing') as typeof import('./start-tracing');
  return sdk.startTracing(options);
}
