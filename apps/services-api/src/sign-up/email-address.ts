import { ValidateBy, ValidationOptions } from 'class-validator';

/**
 * The API's e-mail pattern (docs/sign-up.md, Addresses): a local part that neither starts with a dot nor
 * holds two dots in a row, `@`, a domain of dot-separated labels (at least
 * one dot) ending in an alphabetic top-level label of 2+ letters.
 */
const LOCAL_PART = "(?!\\.)(?!.*\\.\\.)[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
export const EMAIL_PATTERN = new RegExp(`^${LOCAL_PART}@(?:${LABEL}\\.)+[A-Za-z]{2,63}$`);

/** RFC 5321's limit on a forward path. */
const MAX_LENGTH = 254;

export const EMAIL_ALLOWED = 'e-mail address (no leading dot, no consecutive dots, domain with a dot and an alphabetic top-level part of 2+ letters)';

/** The form every rule and every stored row uses: trimmed and lower-cased. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function isOperatorEmail(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const trimmed = value.trim();
  return trimmed.length <= MAX_LENGTH && EMAIL_PATTERN.test(trimmed);
}

export function domainOf(normalisedEmail: string): string {
  return normalisedEmail.slice(normalisedEmail.lastIndexOf('@') + 1);
}

/** Surrounding spaces are tolerated (and dropped by normalisation); the rest must match the pattern. */
export function IsOperatorEmail(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isOperatorEmail', validator: { validate: isOperatorEmail } }, { ...options, message: EMAIL_ALLOWED });
}
