import { rawRequestText, request, requestRaw, sendRaw, singleError } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';

/**
 * What the HTTP server refuses before any operation runs (headers too large,
 * paths it cannot route, malformed HTTP, clients too slow, methods a path
 * does not answer, bodies nested too deep) leaves in the envelope too.
 * Requests go over raw sockets where fetch would refuse to send them.
 */
describe('refusals of the HTTP server, in the envelope', () => {
  let platform: TestPlatform;
  let tenantID: string;
  let ownerToken: string;
  let appUrls: string[];

  beforeAll(async () => {
    platform = await startPlatform({ env: { HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '10000' } });
    appUrls = [platform.coreUrl, platform.servicesUrl, platform.helpdeskUrl];
    tenantID = await platform.fixtures.tenant();
    const owner = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, owner.operatorID, 'owner');
    ownerToken = await platform.tokenFor(owner.operatorID);
  });
  afterAll(() => platform.close());

  it.each([64, 136])('answers an Authorization header of %i KiB 431 1931, on every app', async (kibibytes) => {
    for (const url of appUrls) {
      const response = await requestRaw(url, {
        target: `/v1/tenants/${tenantID}/notifications`,
        headers: { authorization: `Bearer ${'a'.repeat(kibibytes * 1024)}` },
      });
      expect(response.status).toBe(431);
      expect(singleError(response.body)).toEqual({
        statusCode: 431,
        error: 'HeaderFieldsTooLargeError',
        error_code: 1931,
        message: 'The request line and headers are larger than this API accepts.',
      });
    }
  });

  it('answers a path parameter of 10,000 characters 414 1914', async () => {
    for (const [url, target] of [
      [platform.servicesUrl, `/v1/tenants/${'a'.repeat(10_000)}/notifications`],
      [platform.helpdeskUrl, `/helpdesk/v1/tenants/${tenantID}/helpdesk/domains/${'a'.repeat(10_000)}/refresh`],
    ]) {
      const response = await requestRaw(url, { method: 'POST', target });
      expect(response.status).toBe(414);
      expect(singleError(response.body)).toEqual({
        statusCode: 414,
        error: 'UrlTooLongError',
        error_code: 1914,
        message: 'A segment of the request path is longer than this API accepts.',
      });
    }
  });

  it.each(['/v1/tenants/%%/contacts/%00/sessions', '/v1/tenants/%C0%AE%C0%AE%2F/notifications', '/v1/tenants/%E0%A4%A/notifications'])(
    'answers a path that is not valid percent-encoding (%s) 400 1901',
    async (target) => {
      const response = await requestRaw(platform.servicesUrl, { target, headers: { authorization: `Bearer ${ownerToken}` } });
      expect(response.status).toBe(400);
      expect(singleError(response.body)).toEqual({
        statusCode: 400,
        error: 'MalformedUrlError',
        error_code: 1901,
        message: 'The request path is not validly percent-encoded UTF-8.',
      });
    },
  );

  it.each([
    ['an unknown method', 'FOO /tenants HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a broken chunked body', 'POST /v1/operators/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n'],
    ['a Content-Length that is not a number', 'POST /v1/operators/sign-in HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n{}'],
    ['a request line that is not HTTP', 'hello there\r\n\r\n'],
  ])('answers malformed HTTP (%s) 400 1900 and closes the connection', async (_, text) => {
    const response = await sendRaw(platform.coreUrl, text);
    expect(response.status).toBe(400);
    expect(response.headers.connection).toBe('close');
    expect(singleError(response.body)).toEqual({
      statusCode: 400,
      error: 'MalformedRequestError',
      error_code: 1900,
      message: 'The request is not well-formed HTTP.',
    });
  });

  it('answers 408 1908 when the headers do not arrive in time', async () => {
    const response = await requestRaw(platform.coreUrl, { target: '/tenants', headers: { authorization: `Bearer ${ownerToken}` }, stopAfterBytes: 20 });
    expect(response.status).toBe(408);
    expect(singleError(response.body)).toEqual({
      statusCode: 408,
      error: 'RequestTimeoutError',
      error_code: 1908,
      message: 'The request was not received in time.',
    });
  });

  it('answers 408 1908 when the body does not arrive in time', async () => {
    const body = JSON.stringify({ operatorEmail: 'someone@acme.com', password: 'secret-password' });
    const whole = { method: 'POST', target: '/v1/operators/sign-in', headers: { 'content-type': 'application/json' }, body };
    const headersLength = rawRequestText(new URL(platform.coreUrl).host, whole).length - body.length;
    const response = await requestRaw(platform.coreUrl, { ...whole, stopAfterBytes: headersLength + 10 });
    expect(response.status).toBe(408);
    expect(singleError(response.body).error_code).toBe(1908);
  });

  it('answers a method a known path does not answer 405 1905 with Allow; an unknown path stays 404 1904', async () => {
    const patch = await request(platform.coreUrl, '/tenants', { method: 'PATCH', headers: { authorization: `Bearer ${ownerToken}` } });
    expect(patch.status).toBe(405);
    expect(patch.headers.get('allow')).toBe('GET, HEAD');
    expect(singleError(patch.body)).toEqual({
      statusCode: 405,
      error: 'MethodNotAllowedError',
      error_code: 1905,
      message: 'This path does not answer this method.',
    });
    const put = await request(platform.servicesUrl, `/v1/tenants/${tenantID}/plugins/connections/${tenantID}?x=1`, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('DELETE');

    const unknown = await request(platform.servicesUrl, `/v1/tenants/${tenantID}/no-such-thing`, { method: 'PATCH' });
    expect(unknown.status).toBe(404);
    expect(singleError(unknown.body).error_code).toBe(1904);
    const emptyTenant = await request(platform.servicesUrl, '/v1/tenants//plugins/connections', { method: 'PUT' });
    expect(singleError(emptyTenant.body).error_code).toBe(1001);
  });

  it('answers CONNECT like any method no route answers, instead of dropping the connection', async () => {
    const known = await requestRaw(platform.coreUrl, { method: 'CONNECT', target: '/tenants' });
    expect(known.status).toBe(405);
    expect(known.headers.allow).toBe('GET, HEAD');
    expect(singleError(known.body).error_code).toBe(1905);
    const unknown = await requestRaw(platform.servicesUrl, { method: 'CONNECT', target: 'example.com:443' });
    expect(unknown.status).toBe(404);
    expect(singleError(unknown.body).error_code).toBe(1904);
  });

  const nested = (levels: number) => '['.repeat(levels - 1) + ']'.repeat(levels - 1);
  const deepBodies = () => [
    { url: platform.coreUrl, path: '/v1/operators/sign-in', method: 'POST', field: 'operatorEmail' },
    { url: platform.servicesUrl, path: `/v1/tenants/${tenantID}/plugins/connections`, method: 'POST', field: 'pluginID' },
    { url: platform.servicesUrl, path: `/v1/tenants/${tenantID}/campaigns-models`, method: 'POST', field: 'campaignModelMeta' },
    { url: platform.servicesUrl, path: `/v1/tenants/${tenantID}/campaigns-models/${tenantID}`, method: 'PUT', field: 'campaignModelMeta' },
    { url: platform.servicesUrl, path: '/v1/operators/email-verification', method: 'POST', field: 'operatorFirstname' },
  ];

  it('answers a JSON body nested deeper than 64 levels 400 1002 naming the body, on POST and PUT operations', async () => {
    for (const { url, path, method, field } of deepBodies()) {
      for (const body of [`{"${field}":${nested(65)}}`, nested(5000), '{"a":'.repeat(5000) + '1' + '}'.repeat(5000)]) {
        const response = await request(url, path, { method, body, headers: { authorization: `Bearer ${ownerToken}` } });
        expect(response.status, `${method} ${path}`).toBe(400);
        expect(singleError(response.body).fields).toEqual([{ field: 'body', received: 'JSON nested deeper than 64 levels', allowed: 'JSON nested at most 64 levels' }]);
      }
    }
  });

  it('lets a body nested 64 levels deep through to validation', async () => {
    for (const { url, path, method, field } of deepBodies()) {
      const response = await request(url, path, { method, body: `{"${field}":${nested(64)}}`, headers: { authorization: `Bearer ${ownerToken}` } });
      expect(response.status, `${method} ${path}`).toBeLessThan(500);
      const fields = (singleError(response.body).fields ?? []) as { field: string }[];
      expect(fields.map((entry) => entry.field)).not.toContain('body');
    }
  });

  it('serves a request whose Expect is not 100-continue like any other, instead of a bare 417', async () => {
    const response = await requestRaw(platform.coreUrl, { target: '/tenants', headers: { expect: 'a-pony', authorization: `Bearer ${ownerToken}` } });
    expect(response.status).toBe(200);
    const refused = await requestRaw(platform.coreUrl, { target: '/tenants', headers: { expect: 'a-pony' } });
    expect(singleError(refused.body).error_code).toBe(1003);
  });

  it('serves an HTTP/1.1 request without Host like any other', async () => {
    const response = await sendRaw(platform.coreUrl, 'GET /tenants HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(response.status).toBe(401);
    expect(singleError(response.body).error_code).toBe(1003);
  });

  it('still answers readiness on every app after all this', async () => {
    for (const url of appUrls) expect((await request(url, '/health/ready')).status).toBe(200);
  });
});
