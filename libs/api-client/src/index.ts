/**
 * Typed HTTP clients of the platform's three APIs, from their committed
 * OpenAPI documents (docs/openapi/): openapi-typescript's types of every path,
 * parameter, body and answer, used by openapi-fetch, a thin wrapper of fetch.
 */
export { createCoreTenantsClient, createPluginsHelpdeskClient, createServicesApiClient } from './clients.js';
export type { ApiClientOptions, CoreTenantsClient, ErrorEnvelope, PluginsHelpdeskClient, ServicesApiClient } from './clients.js';
export type * as CoreTenantsApi from './generated/core-tenants.js';
export type * as PluginsHelpdeskApi from './generated/plugins-helpdesk.js';
export type * as ServicesApi from './generated/services-api.js';
