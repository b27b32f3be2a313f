import 'reflect-metadata';
import { exitOnStartupFailure, loadConfig } from '@platform/config';
import { listenUntilStopped } from '@platform/http-common';
import { createPluginsHelpdeskApp } from './bootstrap';
import { PluginsHelpdeskConfig } from './config';

async function main(): Promise<void> {
  const config = loadConfig(PluginsHelpdeskConfig);
  const app = await createPluginsHelpdeskApp(config);
  await listenUntilStopped(app, config.PLUGINS_HELPDESK_PORT, config.SHUTDOWN_TIMEOUT_MS);
}

main().catch(exitOnStartupFailure);
