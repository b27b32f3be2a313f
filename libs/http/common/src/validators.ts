import { ValidateBy, ValidationOptions } from 'class-validator';
import { isUuid } from './uuid';

/**
 * Validation decorators whose message is the `allowed` text of a 1002 field
 * (DESIGN.md section 5). The pipe reports the first failing one per field.
 */

export function IsUuidValue(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isUuidValue', validator: { validate: (value) => isUuid(value) } }, { ...options, message: 'uuid' });
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
