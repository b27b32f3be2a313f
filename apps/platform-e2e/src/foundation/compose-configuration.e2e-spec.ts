import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '@platform/config';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { APP_CONFIGS, PLATFORM_APPS, PlatformApp, refusedVariables } from '../support/app-configurations';

type ComposeFile = { services: Record<string, { environment: Record<string, string> }> };

/** Each app's `environment` in compose.yaml, anchors resolved as Compose resolves them. */
const compose = parse(readFileSync(resolve(process.cwd(), 'compose.yaml'), 'utf8'), { merge: true }) as ComposeFile;
const environmentOf = (app: PlatformApp) => compose.services[app].environment;

/** compose.yaml gives each app what its configuration requires (docs/deployment.md, Docker Compose). */
describe('compose.yaml configuration', () => {
  it.each(PLATFORM_APPS)('%s starts with its environment, in development', (app) => {
    expect(environmentOf(app).NODE_ENV).toBe('development');
    expect(refusedVariables(app, environmentOf(app))).toEqual([]);
  });

  it('points every app at the Compose services, not at this machine', () => {
    for (const app of PLATFORM_APPS) {
      const config = loadConfig(APP_CONFIGS[app], environmentOf(app)) as { DATABASE_URL: string; REDIS_URL: string };
      expect(new URL(config.DATABASE_URL).host).toBe('postgres:5432');
      expect(new URL(config.REDIS_URL).host).toBe('redis:6379');
    }
  });

  it('holds no secret production would accept', () => {
    expect(refusedVariables('core-tenants', { ...environmentOf('core-tenants'), NODE_ENV: 'production' })).toEqual(
      expect.arrayContaining(['BILLING_API_KEY', 'VM_PROVIDER_TOKEN', 'CACHE_SECRET']),
    );
    expect(refusedVariables('services-api', { ...environmentOf('services-api'), NODE_ENV: 'production' })).toEqual(
      expect.arrayContaining(['WHATSAPP_ACCESS_TOKEN', 'WHATSAPP_APP_SECRET', 'SIGN_UP_SECRET']),
    );
  });
});
