/** The operator console's server, for the end-to-end suite and the tools (apps/operator-console/server/main.ts runs it). */
export { consoleSettingsFrom, contentSecurityPolicy } from './console-config';
export type { ConsoleConfig, ConsoleServerSettings } from './console-config';
export { createConsoleServer } from './console-server';
export type { ConsoleServerOptions } from './console-server';
