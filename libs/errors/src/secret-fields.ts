/**
 * Which request fields hold secrets, by name: the rule is one and by name so
 * that a field added later is covered without anyone remembering to mark it.
 * It matches the last segment of a field's path (`password`, `newPassword`,
 * `invitationToken`, `clientSecret`, `hub.verify_token`, and what is stored
 * of them: `passwordHash`, `token_hash`), case-insensitively.
 * One-time codes (`emailVerificationCode`) stay echoed: a refused one is
 * wrong or expired, so it opens nothing.
 */
const SECRET_FIELD_NAME = /(password|secret|token)(_?hash)?$/i;

/** Whether the field at `path` (a parameter name or a dotted body path) holds a secret. */
export function isSecretField(path: string): boolean {
  const lastSegment = path.slice(path.lastIndexOf('.') + 1);
  return SECRET_FIELD_NAME.test(lastSegment);
}

export const REDACTED = '[redacted]';

/** Deepest level `redactSecrets` copies; below it a value is replaced whole (it is only ever logged). */
const MAX_REDACTION_DEPTH = 16;

/**
 * A copy of `value` fit for a log line: the value of every key that names a
 * secret (see isSecretField), at any depth, is `[redacted]`. The input is not
 * changed: it may still be needed to answer.
 */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_REDACTION_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = isSecretField(key) ? REDACTED : redactSecrets(item, depth + 1);
  return copy;
}
