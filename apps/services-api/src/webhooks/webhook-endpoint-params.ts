import { TenantParamsWith } from '@platform/http-common';

/** `{tenantID}` and `{webhookEndpointID}`: the path of every route on one endpoint, its delivery log's included. */
export class WebhookEndpointParams extends TenantParamsWith('webhookEndpointID') {}
