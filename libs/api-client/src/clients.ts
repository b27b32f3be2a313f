import createClient, { Client, ClientOptions } from 'openapi-fetch';
import type { components as CoreTenantsComponents, paths as CoreTenantsPaths } from './generated/core-tenants.js';
import type { paths as PluginsHelpdeskPaths } from './generated/plugins-helpdesk.js';
import type { paths as ServicesApiPaths } from './generated/services-api.js';

/** openapi-fetch's options (headers every request sends, a custom fetch, ...), the base URL aside. */
export type ApiClientOptions = Omit<ClientOptions, 'baseUrl'>;

export type ServicesApiClient = Client<ServicesApiPaths>;
export type PluginsHelpdeskClient = Client<PluginsHelpdeskPaths>;
export type CoreTenantsClient = Client<CoreTenantsPaths>;

/** What every error answer of every app holds (docs/errors.md): the same schema in the three documents. */
export type ErrorEnvelope = CoreTenantsComponents['schemas']['ErrorEnvelope'];

/** The services API (`{base_url}`), e.g. `createServicesApiClient('http://127.0.0.1:3000')`. */
export function createServicesApiClient(baseUrl: string, options: ApiClientOptions = {}): ServicesApiClient {
  return createClient<ServicesApiPaths>({ ...options, baseUrl });
}

/** The helpdesk plugin API (`{plugins_url}`). */
export function createPluginsHelpdeskClient(baseUrl: string, options: ApiClientOptions = {}): PluginsHelpdeskClient {
  return createClient<PluginsHelpdeskPaths>({ ...options, baseUrl });
}

/** The core REST API (`{core_url}`): tenants, sign-in, the operator tokens' public keys. */
export function createCoreTenantsClient(baseUrl: string, options: ApiClientOptions = {}): CoreTenantsClient {
  return createClient<CoreTenantsPaths>({ ...options, baseUrl });
}
