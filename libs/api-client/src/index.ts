/**
 * Typed HTTP clients of the platform's three APIs, from their committed
 * OpenAPI documents (docs/openapi/): openapi-typescript's types of every path,
 * parameter, body and answer, used by openapi-fetch, a thin wrapper of fetch.
 */
export { createCoreTenantsClient, createPluginsHelpdeskClient, createServicesApiClient } from './clients';
export type { ApiClientOptions, CoreTenantsClient, ErrorEnvelope, PluginsHelpdeskClient, ServicesApiClient } from './clients';
export type * as CoreTenantsApi from './generated/core-tenants';
export type * as PluginsHelpdeskApi from './generated/plugins-helpdesk';
export type * as ServicesApi from './generated/services-api';
