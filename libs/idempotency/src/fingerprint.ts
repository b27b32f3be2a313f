import { createHash } from 'node:crypto';

/** What makes two requests under one key the same request. */
export interface RequestParameters {
  method: string;
  /** The route's pattern (`/v1/tenants/:tenantID/campaigns-models`), not the URL: the query string plays no part. */
  route: string;
  params: unknown;
  body: unknown;
}

/** JSON with the keys of every object sorted, so that the order a client sends its fields in does not count. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** SHA-256 (hex) of the method, the route, the path parameters and the body as parsed. */
export function fingerprintOf(parameters: RequestParameters): string {
  const { method, route, params, body } = parameters;
  return createHash('sha256').update(canonicalJson([method.toUpperCase(), route, params ?? {}, body ?? null])).digest('hex');
}
