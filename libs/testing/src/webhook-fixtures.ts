import { randomBytes, randomUUID } from 'node:crypto';
import type { Queryable } from './fixtures';

/** Seals a signing secret for an endpoint's row, as services-api stores it (WebhookSigningSecrets.seal). */
export type SealSecret = (endpointID: string, secret: string) => string;

export interface WebhookEndpointFixture {
  webhookEndpointID: string;
  /** The plain secret, as the owner was shown it. */
  secret: string;
}

export interface WebhookEndpointOptions {
  url: string;
  eventTypes?: string[];
  enabled?: boolean;
  /** A rotation's previous secret (plain) and when it stops signing. */
  previousSecret?: { secret: string; expiresAt: Date };
}

/** A new signing secret in the Standard Webhooks form. */
export function webhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Webhook rows straight into the database: endpoints with sealed secrets,
 * and outbox events as an app appends them in its change's transaction.
 */
export class WebhookFixtures {
  constructor(
    private readonly dataSource: Queryable,
    private readonly seal: SealSecret,
  ) {}

  async endpoint(tenantID: string, options: WebhookEndpointOptions): Promise<WebhookEndpointFixture> {
    const webhookEndpointID = randomUUID();
    const secret = webhookSecret();
    const previous = options.previousSecret;
    await this.dataSource.query(
      `INSERT INTO webhook_endpoints (id, tenant_id, url, event_types, enabled, secret, previous_secret, previous_secret_expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        webhookEndpointID,
        tenantID,
        options.url,
        options.eventTypes ?? ['member.roleChanged', 'member.removed'],
        options.enabled ?? true,
        this.seal(webhookEndpointID, secret),
        previous ? this.seal(webhookEndpointID, previous.secret) : null,
        previous?.expiresAt ?? null,
      ],
    );
    return { webhookEndpointID, secret };
  }

  /** Appends an event to the outbox; answers its id (the deliveries' webhook-id). */
  async event(tenantID: string, event: { type: string; orderingKey?: string | null; data: object; id?: string; occurredAt?: string }): Promise<string> {
    const rows: { id: string }[] = await this.dataSource.query(
      `INSERT INTO webhook_events (id, tenant_id, type, version, ordering_key, data, emitted_by, occurred_at)
       VALUES (COALESCE($5::uuid, gen_random_uuid()), $1, $2, 1, $3, $4::jsonb, 'tests', COALESCE($6::timestamptz, clock_timestamp())) RETURNING id`,
      [tenantID, event.type, event.orderingKey ?? null, JSON.stringify(event.data), event.id ?? null, event.occurredAt ?? null],
    );
    return rows[0].id;
  }

  /** Makes the endpoint's current run of failures start at `since`. */
  async failingSince(webhookEndpointID: string, since: Date): Promise<void> {
    await this.dataSource.query('UPDATE webhook_endpoints SET failing_since = $2 WHERE id = $1', [webhookEndpointID, since]);
  }
}
