import { SERVICES_API_VERSION } from '@apps/services-api';
import { request, singleError, withTableMissing } from '@platform/testing';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';
import { sentAsIs } from '../support/sent-as-is';

describe('HTTP conventions shared by every app', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startPlatform({ env: { HTTP_BODY_LIMIT_BYTES: '2048' } });
  });
  afterAll(() => platform.close());

  const signIn = (body: string | unknown, headers: Record<string, string> = {}) => platform.api.core.POST('/v1/operators/sign-in', { ...sentAsIs(body), headers });

  it('answers an unknown route 404 in the envelope, on every app', async () => {
    for (const url of [platform.coreUrl, platform.servicesUrl, platform.helpdeskUrl]) {
      const response = await request(url, '/v1/no-such-thing', { method: 'POST' });
      expect(response.status).toBe(404);
      expect(singleError(response.body)).toEqual({
        statusCode: 404,
        error: 'RouteNotFoundError',
        error_code: 1904,
        message: 'No operation answers on this method and path.',
      });
    }
  });

  it('answers 400 1001 for an empty tenantID segment on services-api and plugins-helpdesk paths', async () => {
    const services = await request(platform.servicesUrl, '/v1/tenants//notifications');
    expect(singleError(services.body).error_code).toBe(1001);
    const helpdesk = await request(platform.helpdeskUrl, '/helpdesk/v1/tenants//helpdesk/domains');
    expect(singleError(helpdesk.body).error_code).toBe(1001);
  });

  it('answers malformed JSON 400 1002 naming the body', async () => {
    const response = await signIn('{"operatorEmail": ');
    expect(response.response.status).toBe(400);
    expect(singleError(response.error)).toEqual({
      statusCode: 400,
      error: 'RequestValidationError',
      error_code: 1002,
      message: 'Invalid request data.',
      fields: [{ field: 'body', received: 'malformed JSON', allowed: 'a JSON object' }],
    });
  });

  it.each([
    ['an array', '[1,2]', 'array'],
    ['null', 'null', 'null'],
    ['a string', '"hello"', 'string'],
    ['a number', '42', 'number'],
  ])('answers a body that is %s 400 1002, with its JSON type only', async (_, raw, received) => {
    const response = await signIn(raw);
    expect(response.response.status).toBe(400);
    expect(singleError(response.error).fields).toEqual([{ field: 'body', received, allowed: 'a JSON object' }]);
  });

  it('answers a body that is not JSON 400 1002', async () => {
    const response = await signIn('operatorEmail=a', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(response.response.status).toBe(400);
    expect(singleError(response.error).error_code).toBe(1002);
  });

  it('refuses prototype pollution attempts with 400 1002', async () => {
    const response = await signIn('{"__proto__": {"admin": true}, "operatorEmail": "a@b.co", "password": "x"}');
    expect(response.response.status).toBe(400);
    expect(singleError(response.error).error_code).toBe(1002);
  });

  it('answers a body over the limit 413 in the envelope', async () => {
    const response = await signIn({ operatorEmail: 'a@acme.com', password: 'x'.repeat(4096) });
    expect(response.response.status).toBe(413);
    expect(singleError(response.error)).toEqual({
      statusCode: 413,
      error: 'PayloadTooLargeError',
      error_code: 1913,
      message: 'The request body is larger than this API accepts.',
    });
  });

  it('answers an unexpected failure 500 5999 without internals', async () => {
    const operator = await platform.fixtures.operator();
    const token = await platform.tokenFor(operator.operatorID);
    await withTableMissing(platform.dataSource, 'memberships', async () => {
      const response = await platform.api.core.GET('/tenants', { headers: { authorization: `Bearer ${token}` } });
      expect(response.response.status).toBe(500);
      expect(singleError(response.error)).toEqual({
        statusCode: 500,
        error: 'UnknownError',
        error_code: 5999,
        message: 'For some unknown reason your request has not succeeded.',
      });
      expect(JSON.stringify(response.error)).not.toContain('memberships');
    });
  });

  it('echoes the request id, or makes one', async () => {
    const given = await platform.api.core.GET('/health/live', { headers: { 'x-request-id': 'req-abc-123' } });
    expect(given.response.headers.get('x-request-id')).toBe('req-abc-123');
    const made = await platform.api.core.GET('/health/live');
    expect(made.response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves liveness and readiness (Postgres and Redis) on every app', async () => {
    for (const api of [platform.api.core, platform.api.services, platform.api.helpdesk]) {
      expect((await api.GET('/health/live')).response.status).toBe(200);
      const ready = await api.GET('/health/ready');
      expect(ready.response.status).toBe(200);
      expect((ready.data as { info: object }).info).toMatchObject({ postgres: { status: 'up' }, redis: { status: 'up' } });
    }
  });

  it('serves each app\'s OpenAPI document and an interactive reference page', async () => {
    const services = await request(platform.servicesUrl, '/openapi.json');
    expect(services.status).toBe(200);
    expect(services.body.info.version).toBe(SERVICES_API_VERSION);
    expect(SERVICES_API_VERSION).toBe('0.84.1');
    const core = await request(platform.coreUrl, '/openapi.json');
    expect(Object.keys(core.body.paths)).toEqual(expect.arrayContaining(['/tenants', '/v1/operators/sign-in', '/.well-known/jwks.json']));
    expect(core.body.components.securitySchemes).toMatchObject({ operator: { scheme: 'bearer' }, plugin: { in: 'header' }, pluginConnection: { in: 'header' } });
    for (const url of [platform.coreUrl, platform.servicesUrl, platform.helpdeskUrl]) {
      const page = await fetch(`${url}/docs`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('swagger-ui');
    }
  });

  it('serves the very document committed under docs/openapi/, which is built without starting the app', async () => {
    for (const [app, url] of [
      ['core-tenants', platform.coreUrl],
      ['services-api', platform.servicesUrl],
      ['plugins-helpdesk', platform.helpdeskUrl],
    ]) {
      const committed = JSON.parse(readFileSync(resolve(__dirname, `../../../../docs/openapi/${app}.json`), 'utf8'));
      expect((await request(url, '/openapi.json')).body).toEqual(committed);
    }
  });

  it('publishes the public key that verifies operator tokens', async () => {
    const response = await platform.api.core.GET('/.well-known/jwks.json');
    expect(response.data!.keys).toHaveLength(1);
    expect(response.data!.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(response.data!.keys[0]).not.toHaveProperty('d');
  });
});
