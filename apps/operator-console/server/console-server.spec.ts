import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { request, Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleSettingsFrom } from './console-config';
import { createConsoleServer } from './console-server';

const CONFIG = { servicesApiUrl: 'https://api.example.com', coreTenantsUrl: 'https://core.example.com', realtimeGatewayUrl: 'wss://realtime.example.com' };

/** A raw GET (or other method), so a path is sent exactly as written, `..` included. */
function call(port: number, path: string, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path, method }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe("the operator console's server", () => {
  let root: string;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'console-server-'));
    const assets = join(root, 'assets');
    mkdirSync(assets);
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(assets, 'index-abc.js'), 'export {};');
    writeFileSync(join(tmpdir(), 'outside-the-assets.txt'), 'secret');
    server = createConsoleServer({ assetsDir: root, config: () => CONFIG });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(root, { recursive: true, force: true });
    rmSync(join(tmpdir(), 'outside-the-assets.txt'), { force: true });
  });

  it('serves the page under a CSP that allows its own scripts and the three configured origins, nothing inline', async () => {
    const page = await call(port, '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>console</title>');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; " +
        "connect-src 'self' https://api.example.com https://core.example.com wss://realtime.example.com; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
  });

  it('serves /config.json, hashed assets for a year, and the page for any route of the application', async () => {
    const config = await call(port, '/config.json');
    expect(JSON.parse(config.body)).toEqual(CONFIG);
    expect(config.headers['cache-control']).toBe('no-store');
    const asset = await call(port, '/assets/index-abc.js');
    expect(asset).toMatchObject({ status: 200, body: 'export {};' });
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await call(port, '/sessions/123')).body).toContain('<title>console</title>');
    expect((await call(port, '/health/ready')).status).toBe(200);
  });

  it('answers 404 for a missing asset and never serves a file outside its directory; only GET and HEAD', async () => {
    expect((await call(port, '/assets/missing.js')).status).toBe(404);
    for (const path of ['/../outside-the-assets.txt', '/%2e%2e/outside-the-assets.txt', '/assets/..%2f..%2foutside-the-assets.txt']) {
      const answer = await call(port, path);
      expect(answer.body).not.toContain('secret');
    }
    expect((await call(port, '/%E0%A4%A')).status).toBe(200);
    const posted = await call(port, '/', 'POST');
    expect(posted.status).toBe(405);
    expect(posted.headers.allow).toBe('GET, HEAD');
  });

  it('takes its configuration from CONSOLE_* variables, refusing anything but an origin', () => {
    const env = { CONSOLE_SERVICES_API_URL: 'https://api.example.com', CONSOLE_CORE_TENANTS_URL: 'https://core.example.com:8443', CONSOLE_REALTIME_GATEWAY_URL: 'wss://realtime.example.com' };
    expect(consoleSettingsFrom(env)).toEqual({
      port: 3004,
      host: '0.0.0.0',
      config: { servicesApiUrl: 'https://api.example.com', coreTenantsUrl: 'https://core.example.com:8443', realtimeGatewayUrl: 'wss://realtime.example.com' },
    });
    expect(() => consoleSettingsFrom({ ...env, CONSOLE_SERVICES_API_URL: undefined })).toThrow('CONSOLE_SERVICES_API_URL is required');
    expect(() => consoleSettingsFrom({ ...env, CONSOLE_SERVICES_API_URL: 'https://api.example.com/v1' })).toThrow('CONSOLE_SERVICES_API_URL must be an origin');
    expect(() => consoleSettingsFrom({ ...env, CONSOLE_CORE_TENANTS_URL: 'javascript:alert(1)' })).toThrow('CONSOLE_CORE_TENANTS_URL must be a http or https URL');
    expect(() => consoleSettingsFrom({ ...env, CONSOLE_REALTIME_GATEWAY_URL: 'https://realtime.example.com' })).toThrow('CONSOLE_REALTIME_GATEWAY_URL must be a ws or wss URL');
    expect(() => consoleSettingsFrom({ ...env, CONSOLE_PORT: 'eighty' })).toThrow('CONSOLE_PORT must be a port number');
  });
});
