/**
 * The API's <uuid> (docs/http-conventions.md, Validation): 8-4-4-4-12 hex, version digit 1-8, variant digit 8, 9, a
 * or b; the nil and the all-f UUIDs are accepted too; case-insensitive.
 */
const UUID_PATTERN =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}

/**
 * The one spelling of a UUID the platform compares and stores: lower case, as
 * PostgreSQL prints them. Request fields are canonical once validated
 * (`IsUuidValue`); code that reads an id before validation (guards,
 * interceptors, transport payloads, token claims) calls this.
 */
export function canonicalUuid(value: string): string {
  return value.toLowerCase();
}
