import { domainToASCII } from 'node:url';
import { ValidateBy, ValidationOptions } from 'class-validator';

/** The `allowed` text of a 400 1002 on `domainHostname`. */
export const HOSTNAME_ALLOWED = 'hostname of 1-253 characters: two or more dot-separated labels of 1-63 letters, digits or inner hyphens';

export const MAX_HOSTNAME_LENGTH = 253;

/** Letters (any script), marks and digits, dots and hyphens: nothing URL parsing would decode or drop. */
const HOSTNAME_CHARACTERS = /^[\p{L}\p{M}\p{N}.-]+$/u;
const LDH_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const NUMERIC = /^[0-9]+$/;

/**
 * The one spelling a hostname is stored, registered at the provider, looked up
 * and answered in: lower-case ASCII, internationalised labels in punycode
 * (`node:url` domainToASCII, UTS #46 processing). Undefined when `value` is not
 * a hostname we accept:
 * - 1-253 characters as sent, and at most 253 once converted to ASCII;
 * - two or more labels, each 1-63 letters, digits or hyphens, no hyphen at
 *   either end (after conversion); the last label not all digits (no IP
 *   addresses);
 * - no trailing dot, no wildcard, no underscore, no percent-encoding, no spaces.
 */
export function normalizeHostname(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const length = [...value].length;
  if (length < 1 || length > MAX_HOSTNAME_LENGTH || !HOSTNAME_CHARACTERS.test(value)) return undefined;
  const ascii = domainToASCII(value);
  if (ascii === '' || ascii.length > MAX_HOSTNAME_LENGTH) return undefined;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((label) => LDH_LABEL.test(label))) return undefined;
  if (NUMERIC.test(labels[labels.length - 1])) return undefined;
  return ascii;
}

/** Validation decorator: a value `normalizeHostname` accepts. */
export function IsHostname(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isHostname', validator: { validate: (value) => normalizeHostname(value) !== undefined } },
    { ...options, message: HOSTNAME_ALLOWED },
  );
}
