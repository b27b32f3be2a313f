/**
 * The body options of a typed-client call for a body a test sends whatever
 * the contract says (unknown fields, wrong types, on purpose): an object is
 * sent as JSON, a string as it is (malformed JSON, a JSON array).
 */
export function sentAsIs(body: unknown): { body: never; bodySerializer?: (body: unknown) => unknown } {
  return typeof body === 'string' ? { body: body as never, bodySerializer: (raw) => raw } : { body: body as never };
}

/** A query string as a test writes it (`?perPage=3&page=2`, values valid or not), as the typed client's query object. */
export function queryAsSent(query: string): never {
  return Object.fromEntries(new URLSearchParams(query)) as never;
}
