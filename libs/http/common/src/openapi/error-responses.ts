import type { OpenAPIObject } from '@nestjs/swagger';
import type { ExampleObject, HeaderObject, OperationObject, ParameterObject, ReferenceObject, ResponseObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { AppException, ERROR_CATALOG, errorEnvelope, ErrorKey, FieldError } from '@platform/errors';
import { ERROR_KEYS_EXTENSION, IDEMPOTENT_EXTENSION, NO_DEPENDENCY_EXTENSION } from './api-errors.decorator';

type OperationWithErrorKeys = OperationObject & { [ERROR_KEYS_EXTENSION]?: ErrorKey[]; [NO_DEPENDENCY_EXTENSION]?: boolean; [IDEMPOTENT_EXTENSION]?: boolean };

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** What the HTTP server refuses before any operation runs, whatever the operation (docs/errors.md). */
const SERVER_REFUSALS: readonly ErrorKey[] = ['MalformedRequest', 'MalformedUrl', 'RequestTimeout', 'HeaderFieldsTooLarge'];

/**
 * The errors an operation can answer: its own (`@ApiErrors`) plus those every
 * operation of its kind answers. One rule per line, each the documentation of
 * the code that raises it:
 * - a guarded operation (any security requirement): 401 1003 (AuthGuard), and
 *   429 1071 past the principal's or the tenant's request budget (RequestQuotas);
 * - a guarded operation on a tenant's path: 403 1004 (the tenant access check);
 * - a path with `{tenantID}`: 400 1001 for an empty segment (AuthGuard, or the
 *   filter when no route matches);
 * - path or query parameters, or a body: 400 1002 with `fields` (RequestValidationPipe);
 * - a path parameter: 414 1914 above the route's length limit (Fastify's router);
 * - a body: 413 1913 above HTTP_BODY_LIMIT_BYTES;
 * - every operation: the server's refusals and 500 5999 for the unexpected;
 * - every operation but those marked `@ApiNoDependency()`: 503 5903 when
 *   PostgreSQL, Redis or another app cannot be reached;
 * - an operation taking an `Idempotency-Key` (`@ApiIdempotent()`): 422 1980
 *   and 409 1981 (libs/idempotency).
 */
export function errorKeysOf(path: string, operation: OperationObject): ErrorKey[] {
  const own = (operation as OperationWithErrorKeys)[ERROR_KEYS_EXTENSION] ?? [];
  const parameters = (operation.parameters ?? []) as ParameterObject[];
  const inPath = parameters.some((parameter) => parameter.in === 'path');
  const validated = inPath || parameters.some((parameter) => parameter.in === 'query') || operation.requestBody !== undefined;
  const guarded = (operation.security ?? []).length > 0;
  const tenantPath = path.includes('{tenantID}');
  const keys: ErrorKey[] = [...SERVER_REFUSALS, ...own, 'Unknown'];
  if (!(operation as OperationWithErrorKeys)[NO_DEPENDENCY_EXTENSION]) keys.push('InternalServiceUnavailable');
  if (guarded) keys.push('Unauthorized', 'TooManyRequests');
  if (guarded && tenantPath) keys.push('Forbidden');
  if (tenantPath) keys.push('MissingTenantID');
  if (validated) keys.push('RequestValidation');
  if (inPath) keys.push('UrlTooLong');
  if (operation.requestBody !== undefined) keys.push('PayloadTooLarge');
  if ((operation as OperationWithErrorKeys)[IDEMPOTENT_EXTENSION]) keys.push('RequestValidation', 'IdempotencyKeyReused', 'IdempotencyRequestInProgress');
  return [...new Set(keys)];
}

/** The `fields` of the 1002 example: a path id that is not a UUID, else a body that is not JSON, else a missing query parameter. */
function exampleFields(path: string, operation: OperationObject): FieldError[] {
  const parameters = (operation.parameters ?? []) as ParameterObject[];
  const idParameter = parameters.find((parameter) => parameter.in === 'path' && path.includes(`{${parameter.name}}`) && parameter.name.endsWith('ID'));
  if (idParameter) return [{ field: idParameter.name, received: 'abc', allowed: 'uuid' }];
  if (operation.requestBody !== undefined) return [{ field: 'body', received: 'malformed JSON', allowed: 'a JSON object' }];
  const first = parameters.find((parameter) => parameter.in === 'path' || parameter.in === 'query');
  return [{ field: first?.name ?? 'body', received: 'undefined', allowed: 'see the parameter\'s schema' }];
}

/**
 * The example of `key` on this operation, kept once in `components.examples`
 * and referenced: by error name, and for 1002 by the field it names too.
 */
function exampleOf(key: ErrorKey, path: string, operation: OperationObject, examples: Record<string, ExampleObject>): ReferenceObject {
  const fields = key === 'RequestValidation' ? exampleFields(path, operation) : undefined;
  const exception = fields ? AppException.validation(fields) : new AppException(key);
  const name = ERROR_CATALOG[key].name + (fields ? `_${fields[0].field.replace(/[^A-Za-z0-9._-]/g, '_')}` : '');
  examples[name] ??= { summary: `${ERROR_CATALOG[key].code} ${ERROR_CATALOG[key].name}`, value: errorEnvelope(exception.toBody()) };
  return { $ref: `#/components/examples/${name}` };
}

function responseOf(keys: ErrorKey[], path: string, operation: OperationObject, examples: Record<string, ExampleObject>): ResponseObject {
  const lines = keys.map((key) => `- ${ERROR_CATALOG[key].code} ${ERROR_CATALOG[key].name}: ${ERROR_CATALOG[key].message}`);
  const status = ERROR_CATALOG[keys[0]].status;
  const response: ResponseObject = {
    description: lines.join('\n'),
    content: {
      'application/json': {
        schema: { $ref: `#/components/schemas/${ERROR_ENVELOPE_SCHEMA}` },
        examples: Object.fromEntries(keys.map((key) => [String(ERROR_CATALOG[key].code), exampleOf(key, path, operation, examples)])),
      },
    },
  };
  if (status === 429 || keys.includes('IdempotencyRequestInProgress')) {
    response.headers = { 'Retry-After': { description: 'Seconds after which asking again can succeed', schema: { type: 'integer', minimum: 1 } } };
  }
  return response;
}

export const ERROR_ENVELOPE_SCHEMA = 'ErrorEnvelope';

/** The envelope of every error (docs/errors.md), as schemas. */
const ERROR_SCHEMAS = {
  FieldError: {
    type: 'object',
    description: 'One offending input of a 400 1002.',
    required: ['field', 'allowed'],
    properties: {
      field: { type: 'string', description: 'Parameter name; a dotted path inside a body', example: 'campaignModelSlots.body.text' },
      received: { type: 'string', description: 'The value as sent, as a string ("undefined" when absent); omitted for secret fields (passwords, tokens, secrets)', example: 'undefined' },
      allowed: { type: 'string', description: 'What is accepted', example: 'string 1-1024' },
    },
  },
  Error: {
    type: 'object',
    required: ['statusCode', 'error', 'error_code', 'message'],
    properties: {
      statusCode: { type: 'integer', description: 'The HTTP status, repeated', example: 400 },
      error: { type: 'string', description: 'The error name of the catalog', example: 'RequestValidationError' },
      error_code: {
        type: 'integer',
        description: 'The code of the catalog (docs/errors.md)',
        enum: Object.values(ERROR_CATALOG).map((entry) => entry.code).sort((a, b) => a - b),
        example: 1002,
      },
      message: { type: 'string', example: 'Invalid request data.' },
      fields: { type: 'array', description: 'Only with error_code 1002', items: { $ref: '#/components/schemas/FieldError' } },
    },
  },
  [ERROR_ENVELOPE_SCHEMA]: {
    type: 'object',
    description: 'Every error answer: exactly one error.',
    required: ['errors'],
    properties: { errors: { type: 'array', minItems: 1, maxItems: 1, items: { $ref: '#/components/schemas/Error' } } },
  },
} as const;

/**
 * Completes every operation of `document` with its error responses, grouped by
 * status, each with the envelope schema and one example per code. Public
 * operations get `security: []` so that no security is stated, not forgotten.
 */
export function documentErrorResponses(document: OpenAPIObject): void {
  document.components ??= {};
  document.components.schemas = { ...document.components.schemas, ...(ERROR_SCHEMAS as unknown as Record<string, SchemaObject>) };
  const examples: Record<string, ExampleObject> = {};
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      operation.security ??= [];
      const byStatus = new Map<number, ErrorKey[]>();
      for (const key of errorKeysOf(path, operation)) {
        const status = ERROR_CATALOG[key].status;
        byStatus.set(status, [...(byStatus.get(status) ?? []), key]);
      }
      for (const [status, keys] of [...byStatus].sort(([a], [b]) => a - b)) {
        keys.sort((a, b) => ERROR_CATALOG[a].code - ERROR_CATALOG[b].code);
        operation.responses[String(status)] = responseOf(keys, path, operation, examples);
      }
      if ((operation.security ?? []).length > 0) documentRateLimitHeaders(operation);
      if ((operation as OperationWithErrorKeys)[IDEMPOTENT_EXTENSION]) documentReplays(operation, (operation as OperationWithErrorKeys)[ERROR_KEYS_EXTENSION] ?? []);
      delete (operation as OperationWithErrorKeys)[ERROR_KEYS_EXTENSION];
      delete (operation as OperationWithErrorKeys)[IDEMPOTENT_EXTENSION];
      delete (operation as OperationWithErrorKeys)[NO_DEPENDENCY_EXTENSION];
    }
  }
  document.components.examples = { ...document.components.examples, ...sortedByKey(examples) };
}

const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': {
    description:
      'The request budgets this request was charged to (draft-ietf-httpapi-ratelimit-headers): `"principal"` (the caller) and, on a tenant\'s data, ' +
      '`"tenant"`, each with its quota `q` (requests) per window `w` (seconds), e.g. `"principal";q=600;w=60, "tenant";q=3000;w=60`',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'What is left of each budget: `r` requests for the next `t` seconds, e.g. `"principal";r=598;t=42, "tenant";r=2990;t=42`',
    schema: { type: 'string' },
  },
} as const satisfies Record<string, HeaderObject>;

/** The answers of a guarded operation charged to its budgets (its successes and 429s) carry the budget headers. */
function documentRateLimitHeaders(operation: OperationObject): void {
  for (const [status, response] of Object.entries(operation.responses)) {
    if (!response || '$ref' in response) continue;
    if (!/^2\d\d$/.test(status) && status !== '429') continue;
    response.headers = { ...response.headers, ...RATE_LIMIT_HEADERS };
  }
}

/** Errors of an operation's own list that its access check answers, before any key is claimed: never replayed. */
const ACCESS_KEYS: readonly ErrorKey[] = ['Forbidden', 'TenantNotFound', 'TenantNotConnected'];

const IDEMPOTENT_REPLAYED = {
  description: '`true` when this answer is the kept answer of an earlier request with the same Idempotency-Key; absent otherwise',
  schema: { type: 'string', enum: ['true'] },
} as const satisfies HeaderObject;

/**
 * The answers a replay can repeat say so in `Idempotent-Replayed`: its
 * successes, and the client errors its action answers (its own error list
 * less the access check's and 429s; the others come before the key is claimed).
 */
function documentReplays(operation: OperationObject, ownKeys: readonly ErrorKey[]): void {
  const replayedErrors = new Set<number>(
    ownKeys.filter((key) => !ACCESS_KEYS.includes(key)).map((key) => ERROR_CATALOG[key].status).filter((status) => status >= 400 && status < 500 && status !== 429),
  );
  for (const [status, response] of Object.entries(operation.responses)) {
    if (!response || '$ref' in response) continue;
    if (!/^2\d\d$/.test(status) && !replayedErrors.has(Number(status))) continue;
    response.headers = { ...response.headers, 'Idempotent-Replayed': IDEMPOTENT_REPLAYED };
  }
}

function sortedByKey<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
