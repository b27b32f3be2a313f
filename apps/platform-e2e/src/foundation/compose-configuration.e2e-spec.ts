import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CoreTenantsConfig } from '@apps/core-tenants';
import { PluginsHelpdeskConfig } from '@apps/plugins-helpdesk';
import { ServicesApiConfig } from '@apps/services-api';
import { ConfigurationError, loadConfig } from '@platform/config';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

type App = 'core-tenants' | 'services-api' | 'plugins-helpdesk';
const CONFIGS: Record<App, new () => object> = {
  'core-tenants': CoreTenantsConfig,
  'services-api': ServicesApiConfig,
  'plugins-helpdesk': PluginsHelpdeskConfig,
};
type ComposeFile = { services: Record<string, { environment: Record<string, string> }> };

/** Each app's `environment` in compose.yaml, anchors resolved as Compose resolves them. */
const compose = parse(readFileSync(resolve(process.cwd(), 'compose.yaml'), 'utf8'), { merge: true }) as ComposeFile;
const environmentOf = (app: App) => compose.services[app].environment;

function refusedVariables(app: App, env: Record<string, string>): string[] {
  try {
    loadConfig(CONFIGS[app], env);
  } catch (error) {
    if (error instanceof ConfigurationError) return error.problems.map((problem) => problem.split(' ')[0]);
    throw error;
  }
  return [];
}

/** compose.yaml gives each app what its configuration requires (docs/deployment.md, Docker Compose). */
describe('compose.yaml configuration', () => {
  it.each(Object.keys(CONFIGS) as App[])('%s starts with its environment, in development', (app) => {
    expect(environmentOf(app).NODE_ENV).toBe('development');
    expect(refusedVariables(app, environmentOf(app))).toEqual([]);
  });

  it('points every app at the Compose services, not at this machine', () => {
    for (const app of Object.keys(CONFIGS) as App[]) {
      const config = loadConfig(CONFIGS[app], environmentOf(app)) as { DATABASE_URL: string; REDIS_URL: string };
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
