import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { startTracing } from '@platform/tracing-sdk';

/**
 * Tracing for a test file, into memory: import this first, before anything
 * that loads http, pg or ioredis (the apps, the test helpers), as each app's
 * main starts tracing before its other modules load.
 */
export const spans = new InMemorySpanExporter();
export const tracing = startTracing({ app: 'platform-e2e', spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
