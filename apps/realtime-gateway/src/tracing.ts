import { startTracingWhenConfigured } from '@platform/tracing';

// The first module main loads: tracing, when configured, must start before http, pg and ioredis are required.
startTracingWhenConfigured('realtime-gateway');
