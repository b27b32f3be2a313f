import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createCoreTenantsApp, CoreTenantsConfig } from '@apps/core-tenants';
import { PluginsHelpdeskConfig } from '@apps/plugins-helpdesk';
import { createServicesApiApp, ServicesApiConfig } from '@apps/services-api';
import { ConfigurationError, loadConfig, secretVariablesOf } from '@platform/config';
import { describe, expect, it } from 'vitest';
import { APP_CONFIGS, PLATFORM_APPS, refusedVariables } from '../support/app-configurations';
import { ProductionApp, productionEnvironment } from '../support/production-env';

/** `NAME=value` lines of .env.example and `NAME: "value"` lines of k8s/base/secret.example.yaml: the documented examples. */
function documentedExamples(): Map<string, string[]> {
  const read = (file: string) => readFileSync(resolve(process.cwd(), file), 'utf8');
  const examples = new Map<string, string[]>();
  const add = (name: string, value: string) => examples.set(name, [...(examples.get(name) ?? []), value]);
  for (const [, name, value] of read('.env.example').matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)) add(name, value.replace(/^'(.*)'$/, '$1'));
  for (const [, name, value] of read('k8s/base/secret.example.yaml').matchAll(/^\s+([A-Z][A-Z0-9_]*): "(.*)"$/gm)) add(name, value);
  return examples;
}

/** Production configuration of every app: documented examples and placeholders stop it (docs/deployment.md, Secrets). */
describe('production refuses example secrets', () => {
  const examples = documentedExamples();

  describe.each(PLATFORM_APPS)('%s', (app) => {
    const secrets = secretVariablesOf(APP_CONFIGS[app]);

    it('starts with real secrets', () => {
      expect(refusedVariables(app, productionEnvironment(app))).toEqual([]);
    });

    it('refuses every documented example value of its secrets, naming the variable', () => {
      // URL variables hold addresses, and .env.example's are local ones without credentials, valid anywhere.
      const checked = secrets.filter((name) => examples.has(name) && !name.endsWith('_URL'));
      expect(checked.length).toBeGreaterThan(0);
      for (const name of checked) {
        for (const example of examples.get(name)!) {
          expect(refusedVariables(app, { ...productionEnvironment(app), [name]: example }), `${name}=${example}`).toEqual([name]);
        }
      }
    });

    it('refuses change-me in any case, a blank value and a short one for each secret', () => {
      for (const name of secrets) {
        for (const placeholder of ['change-me', 'Change-Me', '   ', 'abc']) {
          const refused = refusedVariables(app, { ...productionEnvironment(app), [name]: placeholder });
          // A URL with no credentials in it ('abc') is refused as malformed instead.
          expect(refused, `${name}=${JSON.stringify(placeholder)}`).toEqual([name]);
        }
      }
    });
  });

  it('marks the provider credentials of each app as secrets', () => {
    expect(secretVariablesOf(CoreTenantsConfig)).toEqual(expect.arrayContaining(['BILLING_API_KEY', 'VM_PROVIDER_TOKEN', 'OPERATOR_JWT_PRIVATE_KEY', 'DATABASE_URL', 'REDIS_URL', 'CACHE_SECRET', 'CACHE_SECRET_PREVIOUS']));
    expect(secretVariablesOf(ServicesApiConfig)).toEqual(
      expect.arrayContaining(['SIGN_UP_SECRET', 'WHATSAPP_ACCESS_TOKEN', 'WHATSAPP_APP_SECRET', 'WHATSAPP_WEBHOOK_VERIFY_TOKEN', 'SMTP_URL']),
    );
    expect(secretVariablesOf(PluginsHelpdeskConfig)).toEqual(expect.arrayContaining(['CLOUDFLARE_API_TOKEN']));
  });

  it.each([
    ['core-tenants', () => createCoreTenantsApp(loadConfig(CoreTenantsConfig, withoutTransportKey('core-tenants')))],
    ['services-api', () => createServicesApiApp(loadConfig(ServicesApiConfig, withoutTransportKey('services-api')))],
  ] as const)('%s refuses to start without TRANSPORT_SECRET, naming it', async (_app, create) => {
    await expect(create()).rejects.toThrow(ConfigurationError);
    await expect(create()).rejects.toThrow(/TRANSPORT_SECRET is missing/);
  });

  it('does not give plugins-helpdesk, which has no part in the transport, a reason to need its key', () => {
    expect(refusedVariables('plugins-helpdesk', productionEnvironment('plugins-helpdesk'))).toEqual([]);
    expect(productionEnvironment('plugins-helpdesk')).not.toHaveProperty('TRANSPORT_SECRET');
  });
});

function withoutTransportKey(app: ProductionApp): Record<string, string> {
  const { TRANSPORT_SECRET: _omitted, ...env } = productionEnvironment(app);
  return env;
}
