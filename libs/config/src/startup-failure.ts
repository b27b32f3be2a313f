import { hostname } from 'node:os';
import { DependencyUnreachableError } from './dependency-reachability';
import { ConfigurationError } from './load-config';

/** The failures whose message says all there is to say: no stack trace for them. */
function isExplained(error: unknown): error is ConfigurationError | DependencyUnreachableError {
  return error instanceof ConfigurationError || error instanceof DependencyUnreachableError;
}

/**
 * Ends a process whose start failed with one JSON line on stderr, in the
 * shape of the apps' logs (pino's fields, level 60 = fatal): a configuration
 * problem names its variables, an unreachable PostgreSQL or Redis its
 * variable and address, anything else carries its stack in `err`.
 */
export function exitOnStartupFailure(error: unknown, app?: string): never {
  const line = {
    level: 60,
    time: Date.now(),
    pid: process.pid,
    hostname: hostname(),
    ...(app ? { app } : {}),
    msg: `Startup failed. ${error instanceof Error ? error.message : String(error)}`,
    ...(isExplained(error) || !(error instanceof Error) ? {} : { err: { type: error.name, message: error.message, stack: error.stack } }),
  };
  process.stderr.write(`${JSON.stringify(line)}\n`);
  process.exit(1);
}
