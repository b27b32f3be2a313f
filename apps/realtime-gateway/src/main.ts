// First: the compile cache must be on before any other module is compiled.
import '@platform/compile-cache';
import './tracing';
import 'reflect-metadata';
import { ensureReachable, exitOnStartupFailure, loadConfig, platformDependencies } from '@platform/config';
import { listenUntilStopped } from '@platform/http-common';
import { MetricsListener } from '@platform/observability';
import { createRealtimeGatewayApp } from './bootstrap';
import { RealtimeGatewayConfig } from './config';

async function main(): Promise<void> {
  const config = loadConfig(RealtimeGatewayConfig);
  await ensureReachable(platformDependencies(config));
  const app = await createRealtimeGatewayApp(config);
  await app.get(MetricsListener).listen(config.METRICS_PORT);
  await listenUntilStopped(app, config.REALTIME_GATEWAY_PORT, config.SHUTDOWN_TIMEOUT_MS);
}

main().catch((error: unknown) => exitOnStartupFailure(error, 'realtime-gateway'));
