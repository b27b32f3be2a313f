import type { OpenAPIObject } from '@nestjs/swagger';
import { describe, expect, it } from 'vitest';
import { ERROR_KEYS_EXTENSION, IDEMPOTENT_EXTENSION, NO_DEPENDENCY_EXTENSION } from './api-errors.decorator';
import { documentErrorResponses, errorKeysOf } from './error-responses';

const SERVER_REFUSALS = ['MalformedRequest', 'MalformedUrl', 'RequestTimeout', 'HeaderFieldsTooLarge'];
const ALWAYS = [...SERVER_REFUSALS, 'Unknown', 'InternalServiceUnavailable'];

describe('errorKeysOf', () => {
  it('gives a public operation without input only what every operation answers', () => {
    expect(errorKeysOf('/.well-known/jwks.json', { responses: {} }).sort()).toEqual([...ALWAYS].sort());
  });

  it('leaves 503 5903 out for an operation that reaches no dependency', () => {
    const keys = errorKeysOf('/.well-known/jwks.json', { responses: {}, [NO_DEPENDENCY_EXTENSION]: true } as never);
    expect(keys.sort()).toEqual([...SERVER_REFUSALS, 'Unknown'].sort());
  });

  it('adds the guard, the request budgets, the tenant access check, 1001, validation and the path limit for a guarded tenant path', () => {
    const keys = errorKeysOf('/v1/tenants/{tenantID}/notifications', {
      responses: {},
      security: [{ operator: [] }],
      parameters: [{ name: 'tenantID', in: 'path', required: true }],
    });
    expect(keys.sort()).toEqual([...ALWAYS, 'Unauthorized', 'TooManyRequests', 'Forbidden', 'MissingTenantID', 'RequestValidation', 'UrlTooLong'].sort());
  });

  it('adds 1002 and 413 for a body, keeps the operation\'s own codes, and leaves 403 to tenant paths', () => {
    const keys = errorKeysOf('/v1/operators/invitations/acceptance', {
      responses: {},
      security: [{ operator: [] }],
      requestBody: { content: {} },
      [ERROR_KEYS_EXTENSION]: ['TooManyRequests'],
    } as never);
    expect(keys.sort()).toEqual([...ALWAYS, 'TooManyRequests', 'Unauthorized', 'RequestValidation', 'PayloadTooLarge'].sort());
  });

  it('does not count a header parameter as validated input', () => {
    const keys = errorKeysOf('/v1/operators', { responses: {}, parameters: [{ name: 'accept-language', in: 'header' }] });
    expect(keys).not.toContain('RequestValidation');
  });
});

describe('an operation taking an Idempotency-Key', () => {
  const idempotent = () =>
    ({
      responses: { '201': { description: 'created' } },
      security: [{ operator: [] }],
      parameters: [{ name: 'tenantID', in: 'path', required: true }],
      requestBody: { content: {} },
      [ERROR_KEYS_EXTENSION]: ['TenantNotFound', 'PluginAlreadyInstalled', 'BadGateway'],
      [IDEMPOTENT_EXTENSION]: true,
    }) as never;

  it('answers 422 1980 and 409 1981 besides its own errors', () => {
    expect(errorKeysOf('/v1/tenants/{tenantID}/things', idempotent())).toEqual(
      expect.arrayContaining(['IdempotencyKeyReused', 'IdempotencyRequestInProgress', 'PluginAlreadyInstalled']),
    );
  });

  it('marks Idempotent-Replayed on the answers a replay repeats, Retry-After on 409, and drops the extension', () => {
    const document = { openapi: '3.0.0', info: { title: 't', version: '1' }, paths: { '/v1/tenants/{tenantID}/things': { post: idempotent() } } } as OpenAPIObject;
    documentErrorResponses(document);
    const operation = document.paths['/v1/tenants/{tenantID}/things'].post!;
    const withReplayHeader = Object.entries(operation.responses)
      .filter(([, response]) => response !== undefined && 'headers' in response && response.headers?.['Idempotent-Replayed'])
      .map(([status]) => status);
    // 201 and the action's 409 1950; not the access check's 404 1062, nor 401, 400 or 5xx.
    expect(withReplayHeader.sort()).toEqual(['201', '409']);
    expect((operation.responses['409'] as { headers: Record<string, unknown> }).headers['Retry-After']).toBeDefined();
    expect(operation).not.toHaveProperty(IDEMPOTENT_EXTENSION);
  });
});

describe('documentErrorResponses', () => {
  const document = (): OpenAPIObject => ({
    openapi: '3.0.0',
    info: { title: 't', version: '1' },
    paths: {
      '/v1/tenants/{tenantID}': {
        get: {
          responses: { 200: { description: 'ok' } },
          security: [{ operator: [] }],
          parameters: [{ name: 'tenantID', in: 'path', required: true }],
          [ERROR_KEYS_EXTENSION]: ['TenantNotFound'],
        } as never,
      },
      '/v1/operators/sign-in': { post: { responses: { 200: { description: 'ok' } } } },
    },
  });

  it('groups the codes by status, one example per code, with the 1002 fields, and drops the extension', () => {
    const completed = document();
    documentErrorResponses(completed);
    const operation = completed.paths['/v1/tenants/{tenantID}'].get!;
    expect(Object.keys(operation.responses)).toEqual(['200', '400', '401', '403', '404', '408', '414', '429', '431', '500', '503']);
    const badRequest = operation.responses['400'] as { content: Record<string, { examples: Record<string, { $ref: string }> }> };
    expect(Object.keys(badRequest.content['application/json'].examples)).toEqual(['1001', '1002', '1900', '1901']);
    expect(badRequest.content['application/json'].examples['1002'].$ref).toBe('#/components/examples/RequestValidationError_tenantID');
    expect(completed.components!.examples!.RequestValidationError_tenantID).toEqual({
      summary: '1002 RequestValidationError',
      value: {
        errors: [
          {
            statusCode: 400,
            error: 'RequestValidationError',
            error_code: 1002,
            message: 'Invalid request data.',
            fields: [{ field: 'tenantID', received: 'abc', allowed: 'uuid' }],
          },
        ],
      },
    });
    expect(operation.responses['404']).toMatchObject({ description: '- 1062 TenantNotFoundError: Tenant not found.' });
    expect(operation).not.toHaveProperty(ERROR_KEYS_EXTENSION);
  });

  it('lists RateLimit-Policy and RateLimit on the successes and 429s of a guarded operation, and on nothing of a public one', () => {
    const completed = document();
    documentErrorResponses(completed);
    const guarded = completed.paths['/v1/tenants/{tenantID}'].get!;
    const headersOf = (response: unknown) => Object.keys((response as { headers?: object }).headers ?? {});
    expect(headersOf(guarded.responses['200'])).toEqual(['RateLimit-Policy', 'RateLimit']);
    expect(headersOf(guarded.responses['429'])).toEqual(['Retry-After', 'RateLimit-Policy', 'RateLimit']);
    expect(headersOf(guarded.responses['403'])).toEqual([]);
    const publicOperation = completed.paths['/v1/operators/sign-in'].post!;
    expect(Object.values(publicOperation.responses).flatMap(headersOf)).not.toContain('RateLimit');
  });

  it('states that a public operation needs no credential', () => {
    const completed = document();
    documentErrorResponses(completed);
    expect(completed.paths['/v1/operators/sign-in'].post!.security).toEqual([]);
    expect(completed.paths['/v1/tenants/{tenantID}'].get!.security).toEqual([{ operator: [] }]);
  });
});
