import { ConfigurationError } from './load-config';

/**
 * Ends a process whose start failed, saying why on stderr: a configuration
 * problem names its variables, anything else shows its stack.
 */
export function exitOnStartupFailure(error: unknown): never {
  const message = error instanceof ConfigurationError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`Startup failed. ${message}\n`);
  process.exit(1);
}
