import { request, singleError } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';

const FRONT_END = 'https://app.example.com';
const OTHER_SITE = 'https://evil.example.net';

const preflight = (origin: string, method = 'GET', requestHeaders = 'authorization') => ({
  method: 'OPTIONS',
  headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': requestHeaders },
});

describe('CORS for the operators front end', () => {
  let platform: TestPlatform;
  let ownerToken: string;

  beforeAll(async () => {
    platform = await startPlatform({ env: { CORS_ALLOWED_ORIGINS: `${FRONT_END}, http://localhost:5173`, CORS_MAX_AGE_SECONDS: '120' } });
    const tenantID = await platform.fixtures.tenant();
    const owner = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, owner.operatorID, 'owner');
    ownerToken = await platform.tokenFor(owner.operatorID);
  });
  afterAll(() => platform.close());

  it('answers a preflight from an allowed origin 204 with the methods and headers the API accepts, on every app', async () => {
    for (const url of [platform.coreUrl, platform.servicesUrl, platform.helpdeskUrl]) {
      const response = await request(url, '/tenants', preflight(FRONT_END, 'DELETE', 'authorization, content-type'));
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(FRONT_END);
      expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, PUT, PATCH, DELETE');
      expect(response.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, Accept-Language, X-Request-Id, Idempotency-Key');
      expect(response.headers.get('access-control-max-age')).toBe('120');
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      expect(response.headers.get('vary')).toContain('Origin');
    }
  });

  it('gives an allowed origin its answers, errors included, with the headers a browser client reads exposed', async () => {
    const tenants = await request(platform.coreUrl, '/tenants', { headers: { origin: 'http://localhost:5173', authorization: `Bearer ${ownerToken}` } });
    expect(tenants.status).toBe(200);
    expect(tenants.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(tenants.headers.get('access-control-expose-headers')).toBe('X-Request-Id, Retry-After, Allow, Idempotent-Replayed, RateLimit-Policy, RateLimit');

    const unauthenticated = await request(platform.servicesUrl, '/v1/tenants/00000000-0000-4000-8000-000000000000/notifications', { headers: { origin: FRONT_END } });
    expect(unauthenticated.status).toBe(401);
    expect(singleError(unauthenticated.body).error_code).toBe(1003);
    expect(unauthenticated.headers.get('access-control-allow-origin')).toBe(FRONT_END);
  });

  it('gives another origin no CORS headers, and its preflight the answer it gets without CORS', async () => {
    const answer = await request(platform.coreUrl, '/tenants', { headers: { origin: OTHER_SITE, authorization: `Bearer ${ownerToken}` } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();

    const refused = await request(platform.coreUrl, '/tenants', preflight(OTHER_SITE));
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe('GET, HEAD');
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(singleError(refused.body).error_code).toBe(1905);
  });

  it('answers an OPTIONS request that is not a preflight as before: 405 on a known path, 404 on an unknown one', async () => {
    const known = await request(platform.coreUrl, '/tenants', { method: 'OPTIONS', headers: { origin: FRONT_END } });
    expect(known.status).toBe(405);
    expect(singleError(known.body).error_code).toBe(1905);
    const unknown = await request(platform.servicesUrl, '/v1/no-such-thing', preflight(OTHER_SITE));
    expect(unknown.status).toBe(404);
    expect(singleError(unknown.body).error_code).toBe(1904);
    const noOrigin = await request(platform.servicesUrl, '/v1/no-such-thing', { method: 'OPTIONS' });
    expect(noOrigin.status).toBe(404);
  });
});

describe('CORS when no origin is configured', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startPlatform({ apps: ['core-tenants'] });
  });
  afterAll(() => platform.close());

  it('is off: no CORS headers, and a preflight is a method the path does not answer', async () => {
    const answer = await request(platform.coreUrl, '/.well-known/jwks.json', { headers: { origin: FRONT_END } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(answer.headers.get('vary')).toBeNull();
    const refused = await request(platform.coreUrl, '/tenants', preflight(FRONT_END));
    expect(refused.status).toBe(405);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });
});
