import { ValidateBy } from 'class-validator';

/**
 * Which requests get an access-log line (`request completed`): `all`, only
 * `errors` (4xx and 5xx), or errors and a random `fraction` of the rest.
 * Slow requests are logged in every mode (docs/observability.md, Access log).
 */
export type AccessLogMode = { kind: 'all' } | { kind: 'errors' } | { kind: 'sample'; fraction: number };

/** A fraction from 0 to 1 with at most six decimals: `0`, `0.05`, `1`. */
const SAMPLE = /^sample:((?:0|1)(?:\.\d{1,6})?)$/;

/** What an app logs unless ACCESS_LOG says otherwise: every line outside production, a sample in it. */
export const PRODUCTION_ACCESS_LOG = 'sample:0.05';
export const DEVELOPMENT_ACCESS_LOG = 'all';

/**
 * Reads an ACCESS_LOG value (`all`, `errors` or `sample:<fraction>`); throws
 * on anything else, which the configuration's validation (`@IsAccessLog()`)
 * refuses first.
 */
export function parseAccessLog(value: string): AccessLogMode {
  if (value === 'all' || value === 'errors') return { kind: value };
  const fraction = Number(SAMPLE.exec(value)?.[1] ?? Number.NaN);
  if (!(fraction >= 0 && fraction <= 1)) throw new Error(`not an access-log setting: ${value}`);
  return { kind: 'sample', fraction };
}

function isAccessLog(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    parseAccessLog(value);
    return true;
  } catch {
    return false;
  }
}

/** Property decorator for ACCESS_LOG (see `parseAccessLog`). */
export function IsAccessLog(): PropertyDecorator {
  return ValidateBy({ name: 'isAccessLog', validator: { validate: isAccessLog } }, { message: 'must be all, errors or sample:<fraction 0-1>, e.g. sample:0.05' });
}

/** Which requests an app logs: the mode, and the duration from which a request is logged whatever the mode. */
export interface AccessLogSettings {
  mode: AccessLogMode;
  slowMs: number;
}

/** The access-log settings of a validated configuration: ACCESS_LOG, or the default of its NODE_ENV. */
export function accessLogSettingsOf(config: { NODE_ENV: string; ACCESS_LOG?: string; ACCESS_LOG_SLOW_MS: number }): AccessLogSettings {
  const value = config.ACCESS_LOG ?? (config.NODE_ENV === 'production' ? PRODUCTION_ACCESS_LOG : DEVELOPMENT_ACCESS_LOG);
  return { mode: parseAccessLog(value), slowMs: config.ACCESS_LOG_SLOW_MS };
}
