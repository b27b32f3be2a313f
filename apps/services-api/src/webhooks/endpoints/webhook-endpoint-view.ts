import type { WebhookEndpointDto, WebhookEndpointWithSecretDto } from './webhook-endpoint.dto';
import type { StoredWebhookEndpoint } from './webhook-endpoints.repository';

const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);

/** An endpoint as the API shows it. */
export function webhookEndpointView(row: StoredWebhookEndpoint): WebhookEndpointDto {
  return {
    webhookEndpointID: row.webhookEndpointID,
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes,
    enabled: row.enabled,
    disabledAt: isoOrNull(row.disabledAt),
    disabledReason: row.disabledReason,
    failingSince: isoOrNull(row.failingSince),
    previousSecretExpiresAt: isoOrNull(row.previousSecretExpiresAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The answer of a creation or a rotation: the only answers that carry the plain secret. */
export function webhookEndpointWithSecret(row: StoredWebhookEndpoint, secret: string): WebhookEndpointWithSecretDto {
  return { ...webhookEndpointView(row), secret };
}

/** What an audit summary may say of a URL: its origin. A path or query may carry a receiver's token, which a summary never holds. */
export function urlOriginOf(url: string): string {
  return new URL(url).origin;
}
