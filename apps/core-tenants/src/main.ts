// First: the compile cache must be on before any other module is compiled.
import '@platform/compile-cache';
import './tracing';
import 'reflect-metadata';
import { ensureReachable, exitOnStartupFailure, loadConfig, platformDependencies } from '@platform/config';
import { listenUntilStopped } from '@platform/http-common';
import { MetricsListener } from '@platform/observability';
import { createCoreTenantsApp } from './bootstrap';
import { CoreTenantsConfig } from './config';


async function main(): Promise<void> {
  const config = loadConfig(CoreTenantsConfig);
  await ensureReachable(platformDependencies(config));
  const app = await createCoreTenantsApp(config);
  await app.startAllMicroservices();
  await app.get(MetricsListener).listen(config.METRICS_PORT);
  await listenUntilStopped(app, config.CORE_TENANTS_PORT, config.SHUTDOWN_TIMEOUT_MS);
}

main().catch((error: unknown) => exitOnStartupFailure(error, 'core-tenants'));
