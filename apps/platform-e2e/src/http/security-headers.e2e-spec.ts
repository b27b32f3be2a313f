import { CoreTenantsConfig } from '@apps/core-tenants';
import { PluginsHelpdeskConfig } from '@apps/plugins-helpdesk';
import { ServicesApiConfig } from '@apps/services-api';
import { BaseConfig, loadConfig } from '@platform/config';
import { httpSettingsOf } from '@platform/http-common';
import { sendRaw } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';
import { ProductionApp, productionEnvironment } from '../support/production-env';

/** The headers every answer carries, with the values that matter. */
const SECURITY_HEADERS = {
  'content-security-policy': expect.stringContaining("frame-ancestors 'none'"),
  'strict-transport-security': expect.stringMatching(/^max-age=\d+/),
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};
const headersOf = (response: Response) => Object.fromEntries(response.headers.entries());

describe('security headers on every answer', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startPlatform({ apps: ['core-tenants', 'services-api'], env: { CORS_ALLOWED_ORIGINS: 'https://app.example.com' } });
  });
  afterAll(() => platform?.close());

  it.each([
    ['a success', 'GET', '/health/live', 200],
    ['a route no one answers (404)', 'GET', '/v1/no-such-thing', 404],
    ['a method the path does not answer (405)', 'PATCH', '/v1/operators/email-verification', 405],
    ['a refused credential (401)', 'GET', '/v1/tenants/5f0c8a8e-3a1b-4c2d-9e8f-0a1b2c3d4e5f/notifications', 401],
    ['a validation error (400 1002)', 'POST', '/v1/operators/email-verification', 400],
    ['the OpenAPI document', 'GET', '/openapi.json', 200],
  ])('on %s', async (_case, method, path, status) => {
    const response = await fetch(`${platform.servicesUrl}${path}`, method === 'POST' ? { method, headers: { 'content-type': 'application/json' }, body: '{"x":1}' } : { method });
    // Read whole: an unread answer (the document is large) would hold its connection open past the test.
    await response.arrayBuffer();
    expect(response.status).toBe(status);
    expect(headersOf(response)).toMatchObject(SECURITY_HEADERS);
  });

  it('on a CORS preflight, whose CORS headers stay as they were', async () => {
    const response = await fetch(`${platform.servicesUrl}/v1/operators/email-verification`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
    });
    await response.arrayBuffer();
    expect(response.status).toBe(204);
    expect(headersOf(response)).toMatchObject({ ...SECURITY_HEADERS, 'access-control-allow-origin': 'https://app.example.com' });
  });

  it('on an answer of the router itself (malformed percent-encoding)', async () => {
    const response = await sendRaw(platform.servicesUrl, `GET /v1/tenants/%E0%A4%A/notifications HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(response.status).toBe(400);
    expect(response.headers).toMatchObject(SECURITY_HEADERS);
  });

  it('on core-tenants too, and the API reference page still loads its own scripts and styles', async () => {
    const live = await fetch(`${platform.coreUrl}/health/live`);
    await live.arrayBuffer();
    expect(headersOf(live)).toMatchObject(SECURITY_HEADERS);
    const page = await fetch(`${platform.coreUrl}/docs`);
    expect(page.status).toBe(200);
    const policy = page.headers.get('content-security-policy')!;
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("style-src 'self' https: 'unsafe-inline'");
    expect(policy).toContain("img-src 'self' data:");
    const html = await page.text();
    // Every script the page loads is its own (served under /docs), none inline: the policy lets it run.
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, inline] of scripts) {
      expect(inline.trim()).toBe('');
      const source = /src="([^"]+)"/.exec(attributes)![1];
      const script = await fetch(new URL(source, page.url));
      await script.arrayBuffer();
      expect(script.status).toBe(200);
    }
  });
});

describe('API_DOCS: /docs and /openapi.json', () => {
  it.each([
    ['core-tenants', CoreTenantsConfig],
    ['services-api', ServicesApiConfig],
    ['plugins-helpdesk', PluginsHelpdeskConfig],
  ] as [ProductionApp, new () => BaseConfig][])('are off in production unless API_DOCS=on (%s)', (app, config) => {
    const production = productionEnvironment(app);
    expect(httpSettingsOf(loadConfig(config, production)).serveApiDocs).toBe(false);
    expect(httpSettingsOf(loadConfig(config, { ...production, API_DOCS: 'on' })).serveApiDocs).toBe(true);
    expect(httpSettingsOf(loadConfig(config, { ...production, NODE_ENV: 'development', TRANSPORT_NAMESPACE: 'dev' })).serveApiDocs).toBe(true);
  });

  it('are not served with API_DOCS=off: 404 1904 like any unknown route, the API itself unchanged', async () => {
    const platform = await startPlatform({ apps: ['services-api'], env: { API_DOCS: 'off' } });
    try {
      for (const path of ['/openapi.json', '/docs', '/docs/swagger-ui-init.js']) {
        const response = await fetch(`${platform.servicesUrl}${path}`);
        expect(response.status).toBe(404);
        expect(((await response.json()) as { errors: { error_code: number }[] }).errors[0].error_code).toBe(1904);
      }
      expect((await fetch(`${platform.servicesUrl}/health/live`)).status).toBe(200);
    } finally {
      await platform.close();
    }
  });
});
