import 'reflect-metadata';
import { exitOnStartupFailure, loadConfig } from '@platform/config';
import { listenUntilStopped } from '@platform/http-common';
import { createCoreTenantsApp } from './bootstrap';
import { CoreTenantsConfig } from './config';


async function main(): Promise<void> {
  const config = loadConfig(CoreTenantsConfig);
  const app = await createCoreTenantsApp(config);
  await app.startAllMicroservices();
  await listenUntilStopped(app, config.CORE_TENANTS_PORT, config.SHUTDOWN_TIMEOUT_MS);
}

main().catch(exitOnStartupFailure);
