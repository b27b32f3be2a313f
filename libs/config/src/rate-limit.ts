import { ValidateBy } from 'class-validator';

/** A request budget: at most `limit` requests per window of `windowSeconds`. */
export interface RateLimitSetting {
  limit: number;
  windowSeconds: number;
}

const RATE_LIMIT = /^([1-9]\d{0,8})\/([1-9]\d{0,4})s$/;
const MAX_WINDOW_SECONDS = 86_400;

/**
 * Reads a rate-limit variable: `<requests>/<seconds>s` (e.g. `3000/60s`), or
 * `off` for no limit. Undefined for `off`; throws on anything else, which the
 * configuration's validation (`@IsRateLimit()`) refuses first.
 */
export function parseRateLimit(value: string): RateLimitSetting | undefined {
  if (value === 'off') return undefined;
  const match = RATE_LIMIT.exec(value);
  const windowSeconds = Number(match?.[2]);
  if (!match || windowSeconds > MAX_WINDOW_SECONDS) throw new Error(`not a rate limit: ${value}`);
  return { limit: Number(match[1]), windowSeconds };
}

function isRateLimit(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    parseRateLimit(value);
    return true;
  } catch {
    return false;
  }
}

/** Property decorator for a rate-limit variable (see `parseRateLimit`). */
export function IsRateLimit(): PropertyDecorator {
  return ValidateBy(
    { name: 'isRateLimit', validator: { validate: isRateLimit } },
    { message: `must be <requests>/<seconds>s, e.g. 3000/60s (window 1-${MAX_WINDOW_SECONDS} s), or off` },
  );
}
