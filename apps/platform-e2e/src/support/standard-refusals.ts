import { singleError } from '@platform/testing';
import type { Client } from 'openapi-fetch';
import { describe, expect, it } from 'vitest';

type Awaitable<T> = T | Promise<T>;

/** The envelope element of each standard refusal, as docs/errors.md lists it. */
const REFUSED = {
  missingTenantID: { statusCode: 400, error: 'MissingTenantIDError', error_code: 1001, message: 'tenantID is required.' },
  malformedTenantID: {
    statusCode: 400,
    error: 'RequestValidationError',
    error_code: 1002,
    message: 'Invalid request data.',
    fields: [{ field: 'tenantID', received: 'not-a-uuid', allowed: 'uuid' }],
  },
  unauthorized: { statusCode: 401, error: 'UnauthorizedError', error_code: 1003, message: 'You are not authorized to perform this request.' },
  forbidden: { statusCode: 403, error: 'ForbiddenError', error_code: 1004, message: 'You do not have access to this resource.' },
  tenantNotFound: { statusCode: 404, error: 'TenantNotFoundError', error_code: 1062, message: 'Tenant not found.' },
} as const;

/**
 * One tenant-scoped operation, as the standard refusals send it. Everything
 * but `method` and `path` is read when a case runs (after the spec's
 * `beforeAll`); which cases exist follows from the members given.
 */
export interface RefusedOperation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The operation's path in its OpenAPI document, e.g. `/v1/tenants/{tenantID}/notifications`. */
  path: string;
  /** The typed client of the app that answers it (`platform.api.services`): its answers are checked against the document. */
  client: () => Client<any>;
  /** A tenant on which `valid` may act. */
  tenantID: () => string;
  /** Other path parameters, valid ones (read once: a spec may create what they name here). */
  pathParams?: () => Awaitable<Record<string, string>>;
  /** A valid query string's parameters (a search's `q`), so that only the case's own fault is refused. */
  query?: () => Awaitable<Record<string, string>>;
  /** A valid body. */
  body?: () => Awaitable<unknown>;
  /** Authorization of a caller the operation serves on `tenantID`. */
  valid: () => Awaitable<string>;
  /** Authorization of callers with no standing on the tenant (an operator of another tenant only, a plugin not installed there): 403 1004. The first is an operator's. */
  outsider?: () => Awaitable<string | string[]>;
  /** Authorization of members of the tenant without the role the operation needs: 403 1004. */
  wrongRole?: () => Awaitable<string | string[]>;
  /** Other credentials this operation refuses with 401 1003 (e.g. a plugin's, where only operators are served); none and a forged token always are. */
  invalid?: () => Awaitable<string[]>;
  /** What a tenant that does not exist answers: 404 1062 (the default) or, where existence must not leak, 403 1004. */
  unknownTenant?: 404 | 403;
  /**
   * Asserts the refusal order the platform keeps: a missing tenantID before
   * credentials, credentials before a malformed tenantID, then the tenantID
   * before the tenant's existence, and existence before access. On unless the
   * operation documents another order.
   */
  order?: boolean;
  /** A reading of what the operation writes (rows, counts, a row's status): each refusal must leave it as it was. */
  written?: () => Promise<unknown>;
}

interface RefusalCase {
  name: string;
  tenantID: 'valid' | 'empty' | 'malformed' | 'unknown';
  /** Whose authorization the request carries; `none`: no Authorization header. */
  caller: 'valid' | 'none' | 'forged' | 'invalid' | 'outsider' | 'wrongRole';
  expected: (typeof REFUSED)[keyof typeof REFUSED];
}

/** A tenant id no test makes. */
const UNKNOWN_TENANT_ID = '5f0c8a8e-3a1b-4c2d-9e8f-0a1b2c3d4e5f';
const FORGED_TOKEN = 'Bearer not.a.jwt';

/** The cases `operation` gets, from what it declares. */
function refusalCases(operation: Omit<RefusedOperation, 'client'>): RefusalCase[] {
  const unknownTenant = operation.unknownTenant === 403 ? REFUSED.forbidden : REFUSED.tenantNotFound;
  const cases: RefusalCase[] = [
    { name: 'is 400 1001 for an empty tenantID', tenantID: 'empty', caller: 'valid', expected: REFUSED.missingTenantID },
    { name: 'is 400 1002 naming tenantID for a malformed one', tenantID: 'malformed', caller: 'valid', expected: REFUSED.malformedTenantID },
    { name: 'is 401 1003 without credentials', tenantID: 'valid', caller: 'none', expected: REFUSED.unauthorized },
    { name: 'is 401 1003 with a forged token', tenantID: 'valid', caller: 'forged', expected: REFUSED.unauthorized },
  ];
  if (operation.invalid) cases.push({ name: 'is 401 1003 with credentials this operation does not take', tenantID: 'valid', caller: 'invalid', expected: REFUSED.unauthorized });
  if (operation.outsider) cases.push({ name: 'is 403 1004 for callers with no standing on the tenant', tenantID: 'valid', caller: 'outsider', expected: REFUSED.forbidden });
  if (operation.wrongRole) cases.push({ name: 'is 403 1004 for a member without the role it needs', tenantID: 'valid', caller: 'wrongRole', expected: REFUSED.forbidden });
  cases.push({ name: `is ${unknownTenant.statusCode} ${unknownTenant.error_code} for a tenant that does not exist`, tenantID: 'unknown', caller: 'valid', expected: unknownTenant });
  if (operation.order ?? true) {
    cases.push({ name: 'checks the tenantID is there (400 1001) before credentials', tenantID: 'empty', caller: 'none', expected: REFUSED.missingTenantID });
    cases.push({ name: 'checks credentials (401) before the tenantID (400 1002)', tenantID: 'malformed', caller: 'none', expected: REFUSED.unauthorized });
    if (operation.outsider) {
      // Checked with the first outsider only: the order does not depend on who asks.
      cases.push({ name: 'checks the tenantID (400 1002) before access', tenantID: 'malformed', caller: 'outsider', expected: REFUSED.malformedTenantID });
      cases.push({ name: `checks the tenant's existence before access (${unknownTenant.error_code})`, tenantID: 'unknown', caller: 'outsider', expected: unknownTenant });
    }
  }
  return cases;
}

/**
 * The standard refusals of a tenant-scoped operation (docs/testing.md,
 * Standard refusals), one test each, in a `describe` of their own: status
 * and envelope of each, and, when the operation says what it writes,
 * nothing written by any of them.
 */
export function describeStandardRefusals(declared: RefusedOperation): void {
  // Callers are made once (a spec's getter may create fixtures, which exist once per tenant) and shared by the cases.
  const operation: RefusedOperation = {
    ...declared,
    pathParams: once(declared.pathParams),
    outsider: once(declared.outsider),
    wrongRole: once(declared.wrongRole),
    invalid: once(declared.invalid),
  };
  describe(`${operation.method} ${operation.path}: standard refusals`, () => {
    it.each(refusalCases(operation))('$name', async (refusal) => {
      const before = await operation.written?.();
      const callers = await authorizationsOf(operation, refusal.caller);
      for (const authorization of refusal.tenantID === 'valid' ? callers : callers.slice(0, 1)) {
        const answer = await send(operation, tenantIDOf(operation, refusal.tenantID), authorization);
        const label = `${refusal.caller} ${authorization ?? '(none)'}`;
        expect(answer.response.status, label).toBe(refusal.expected.statusCode);
        expect(singleError(answer.error), label).toEqual(refusal.expected);
      }
      if (operation.written) expect(await operation.written()).toEqual(before);
    });
  });
}

function once<T>(make: (() => T) | undefined): (() => T) | undefined {
  if (!make) return undefined;
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

function tenantIDOf(operation: RefusedOperation, tenantID: RefusalCase['tenantID']): string {
  switch (tenantID) {
    case 'valid':
      return operation.tenantID();
    case 'empty':
      return '';
    case 'malformed':
      return 'not-a-uuid';
    case 'unknown':
      return UNKNOWN_TENANT_ID;
  }
}

/** The Authorization headers a case sends, one request each (undefined: none). */
async function authorizationsOf(operation: RefusedOperation, caller: RefusalCase['caller']): Promise<(string | undefined)[]> {
  switch (caller) {
    case 'none':
      return [undefined];
    case 'forged':
      return [FORGED_TOKEN];
    case 'invalid':
      return [...(await operation.invalid!())];
    case 'valid':
      return [await operation.valid()];
    case 'outsider':
      return [await operation.outsider!()].flat();
    case 'wrongRole':
      return [await operation.wrongRole!()].flat();
  }
}

/** One request through the app's typed client, so its answer is checked against the operation's document too. */
async function send(operation: RefusedOperation, tenantID: string, authorization: string | undefined): Promise<{ response: Response; error?: unknown }> {
  const headers = authorization === undefined ? {} : { authorization };
  return operation.client().request(operation.method.toLowerCase() as Lowercase<RefusedOperation['method']>, operation.path, {
    params: { path: { ...(await operation.pathParams?.()), tenantID }, query: await operation.query?.() },
    headers,
    // openapi-fetch sends no body for undefined.
    body: await operation.body?.(),
  });
}
