import { ValidateBy, ValidationOptions } from 'class-validator';

/**
 * Validators of campaign-model bodies whose message is the `allowed` text of
 * a 400 1002 field (docs/http-conventions.md).
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON object (free-form: its members are not checked). */
export function IsJsonObject(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isJsonObject', validator: { validate: isPlainObject } }, { ...options, message: 'object' });
}

/** An array of min-max items (the items are checked by their own rules). */
export function IsArrayOfLength(min: number, max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isArrayOfLength', validator: { validate: (value) => Array.isArray(value) && value.length >= min && value.length <= max } },
    { ...options, message: `array of ${min}-${max} items` },
  );
}

/** An array of at most `maxItems` strings, each of 1-`maxLength` characters. */
export function IsStringList(maxItems: number, maxLength: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isStringList',
      validator: {
        validate: (value) =>
          Array.isArray(value) &&
          value.length <= maxItems &&
          value.every((item) => typeof item === 'string' && item.length >= 1 && [...item].length <= maxLength),
      },
    },
    { ...options, message: `array of at most ${maxItems} strings of 1-${maxLength} characters` },
  );
}

/** A string matching `pattern`, described by `allowed`. */
export function IsStringMatching(pattern: RegExp, allowed: string, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isStringMatching', validator: { validate: (value) => typeof value === 'string' && pattern.test(value) } },
    { ...options, message: allowed },
  );
}

/** A JSON integer within [min, max]. */
export function IsIntegerNumber(min: number, max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isIntegerNumber', validator: { validate: (value) => typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max } },
    { ...options, message: `integer ${min}-${max}` },
  );
}
