import { Transform } from 'class-transformer';
import { ValidateBy, ValidationOptions } from 'class-validator';
import { canonicalUuid, isUuid } from './uuid';

/**
 * Validation decorators whose message is the `allowed` text of a 1002 field
 * (docs/http-conventions.md, Validation). The pipe reports the first failing one per field.
 */

export function IsUuidValue(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isUuidValue', validator: { validate: (value) => isUuid(value) } }, { ...options, message: 'uuid' });
}

/**
 * IsUuidValue for an id the request only names (path ids, filters, the
 * plugin to install): handed on lower-cased (canonicalUuid), so no use case
 * or repository lower-cases it again. A refused value is left as sent, so
 * `received` shows what the client sent. An id the answer may echo as sent
 * (e.g. in a 400 the action raises) keeps plain IsUuidValue.
 */
export function IsCanonicalUuid(): PropertyDecorator {
  const rule = IsUuidValue();
  const canonical = Transform(({ value }) => (isUuid(value) ? canonicalUuid(value) : value));
  return (target, property) => {
    canonical(target, property);
    rule(target, property);
  };
}

const DECIMAL_INTEGER = /^(0|[1-9][0-9]*)$/;

/**
 * An integer within [min, max], sent as a JSON number or, in a query string,
 * as plain decimal digits (no sign, spaces, exponent or leading zeros).
 */
export function IsIntegerInRange(min: number, max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isIntegerInRange',
      validator: {
        validate: (value) => {
          if (typeof value === 'number') return Number.isSafeInteger(value) && value >= min && value <= max;
          if (typeof value !== 'string' || !DECIMAL_INTEGER.test(value) || value.length > 16) return false;
          const parsed = Number(value);
          return Number.isSafeInteger(parsed) && parsed >= min && parsed <= max;
        },
      },
    },
    { ...options, message: `integer ${min}-${max}` },
  );
}

export function IsOneOf(values: readonly (string | number)[], options?: ValidationOptions): PropertyDecorator {
  const accepted = new Set<unknown>(values);
  return ValidateBy(
    { name: 'isOneOf', validator: { validate: (value) => accepted.has(value) } },
    { ...options, message: `one of: ${values.join(', ')}` },
  );
}

/** A string whose length in characters (code points) lies within [min, max]. */
export function IsStringOfLength(min: number, max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isStringOfLength',
      validator: {
        validate: (value) => {
          if (typeof value !== 'string') return false;
          const length = [...value].length;
          return length >= min && length <= max;
        },
      },
    },
    { ...options, message: `string of ${min}-${max} characters` },
  );
}

/** RFC 3339 date-time with an explicit offset, e.g. `2026-11-24T16:00:00Z` or `...T16:00:00.123+01:00`. */
const RFC3339_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

/** A date-time of RFC 3339 that names a real instant (no 2026-02-30). */
export function IsDateTimeValue(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isDateTimeValue',
      validator: {
        validate: (value) => {
          if (typeof value !== 'string' || !RFC3339_DATE_TIME.test(value)) return false;
          const instant = new Date(value);
          // Date rolls 2026-02-30 over to March 2: the day written must exist.
          return !Number.isNaN(instant.getTime()) && isCalendarDate(value.slice(0, 10));
        },
      },
    },
    { ...options, message: 'RFC 3339 date-time, e.g. 2026-11-24T16:00:00Z' },
  );
}

/** `YYYY-MM-DD` names a day that exists. */
function isCalendarDate(written: string): boolean {
  const [year, month, day] = written.split('-').map(Number);
  const probe = new Date(Date.UTC(year, month - 1, day));
  return probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
}
