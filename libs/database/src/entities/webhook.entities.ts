import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

/**
 * The outbound-webhook tables (see the migration for their rules). Partial
 * and descending indexes live in the migration only.
 */

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** One event of a tenant, appended in the transaction of its change: the outbox (libs/outbox) its consumers read. */
@Entity({ name: 'webhook_events' })
export class WebhookEventEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'webhook_events_pkey' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantID!: string;

  @Column({ type: 'text' })
  type!: string;

  /** The version of the type's payload schema. */
  @Column({ type: 'integer' })
  version!: number;

  /** Events with the same key reach an endpoint in the order they occurred; null when order does not matter. */
  @Column({ name: 'ordering_key', type: 'text', nullable: true })
  orderingKey!: string | null;

  @Column({ type: 'jsonb' })
  data!: Record<string, unknown>;

  @Column({ name: 'occurred_at', type: 'timestamptz', default: () => 'clock_timestamp()' })
  occurredAt!: Date;

  @Column({ name: 'emitted_by', type: 'text' })
  emittedBy!: string;

  /** Request id and trace context of the change, carried to the deliveries. */
  @Column({ type: 'jsonb', nullable: true })
  headers!: Record<string, string> | null;

  /** Unwritten (each consumer's claim state is its `outbox_pending` rows): kept while a replica of the release before, which reads it, may run beside this one in a rolling upgrade. */
  @Column({ name: 'dispatched_at', type: 'timestamptz', nullable: true })
  dispatchedAt!: Date | null;

  /** Unwritten, and kept for the same reason as `dispatched_at`: the real-time relay's mark of the release before. */
  @Column({ name: 'streamed_at', type: 'timestamptz', nullable: true })
  streamedAt!: Date | null;
}

/** A tenant's receiver: where to send which events, and the secrets that sign them. */
@Entity({ name: 'webhook_endpoints' })
export class WebhookEndpointEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'webhook_endpoints_pkey' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantID!: string;

  @Column({ type: 'text' })
  url!: string;

  @Column({ type: 'text', default: '' })
  description!: string;

  @Column({ name: 'event_types', type: 'text', array: true })
  eventTypes!: string[];

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  /** The signing secret as stored (sealed by services-api, never the plain text). */
  @Column({ type: 'text' })
  secret!: string;

  /** The secret before the last rotation, still signing until `previousSecretExpiresAt`. */
  @Column({ name: 'previous_secret', type: 'text', nullable: true })
  previousSecret!: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true })
  previousSecretExpiresAt!: Date | null;

  /** When the current run of failed attempts began; null after a success. */
  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince!: Date | null;

  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true })
  disabledAt!: Date | null;

  @Column({ name: 'disabled_reason', type: 'text', nullable: true })
  disabledReason!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}

/** One event for one endpoint, until it succeeds or its retries run out. */
@Entity({ name: 'webhook_deliveries' })
@Unique('webhook_deliveries_endpoint_event_key', ['endpointID', 'eventID'])
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'webhook_deliveries_pkey' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantID!: string;

  @Column({ name: 'endpoint_id', type: 'uuid' })
  endpointID!: string;

  /** The event's id: the `webhook-id` header, the same on every attempt. */
  @Column({ name: 'event_id', type: 'uuid' })
  eventID!: string;

  @Column({ name: 'event_type', type: 'text' })
  eventType!: string;

  @Column({ name: 'ordering_key', type: 'text', nullable: true })
  orderingKey!: string | null;

  /** The body as sent: `{ type, timestamp, data }`. */
  @Column({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;

  @Column({ type: 'text', default: 'pending' })
  status!: WebhookDeliveryStatus;

  @Column({ name: 'attempt_count', type: 'integer', default: 0 })
  attemptCount!: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt!: Date | null;

  @Column({ name: 'last_attempt_at', type: 'timestamptz', nullable: true })
  lastAttemptAt!: Date | null;

  @Column({ name: 'last_status_code', type: 'integer', nullable: true })
  lastStatusCode!: number | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  headers!: Record<string, string> | null;

  /** While an attempt is in flight: until when its worker holds it (null otherwise). */
  @Column({ name: 'leased_until', type: 'timestamptz', nullable: true })
  leasedUntil!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'clock_timestamp()' })
  createdAt!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;
}

/** One try of a delivery: the delivery log's line. */
@Entity({ name: 'webhook_delivery_attempts' })
export class WebhookDeliveryAttemptEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'webhook_delivery_attempts_pkey' })
  id!: string;

  @Column({ name: 'delivery_id', type: 'uuid' })
  deliveryID!: string;

  @Column({ name: 'attempted_at', type: 'timestamptz', default: () => 'clock_timestamp()' })
  attemptedAt!: Date;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs!: number;

  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode!: number | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ type: 'boolean' })
  succeeded!: boolean;
}
