import { outboundPolicyOf, OutboundPolicy } from '@platform/http-outbound';
import type { ServicesApiConfig } from '../../config';

/** What the endpoints' use cases take from the configuration. */
export interface WebhookEndpointsSettings {
  /** WEBHOOK_ENDPOINTS_PER_TENANT. */
  endpointsPerTenant: number;
  /** WEBHOOK_SECRET_ROTATION_GRACE_HOURS. */
  rotationGraceHours: number;
  /** The outbound policy the URLs are judged by when saved: https only in production, OUTBOUND_ALLOW. */
  destinations: Pick<OutboundPolicy, 'allowList' | 'httpsOnly'>;
}

export const WEBHOOK_ENDPOINTS_SETTINGS = Symbol('WEBHOOK_ENDPOINTS_SETTINGS');

export function webhookEndpointsSettingsOf(config: ServicesApiConfig): WebhookEndpointsSettings {
  const policy = outboundPolicyOf({ allow: config.OUTBOUND_ALLOW, dnsServers: [], production: config.NODE_ENV === 'production' });
  return {
    endpointsPerTenant: config.WEBHOOK_ENDPOINTS_PER_TENANT,
    rotationGraceHours: config.WEBHOOK_SECRET_ROTATION_GRACE_HOURS,
    destinations: { allowList: policy.allowList, httpsOnly: policy.httpsOnly },
  };
}
