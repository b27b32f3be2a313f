import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The outbox's per-consumer claim state (see the migration for its rules):
 * the event rows themselves are `webhook_events` (WebhookEventEntity). The
 * trigger that writes `outbox_pending`, its CHECK and foreign key live in the
 * migration only.
 */

/** An event one consumer has not yet taken; deleted in the transaction that took it. */
@Entity({ name: 'outbox_pending' })
export class OutboxPendingEntity {
  /** `webhooks` (the dispatcher) or `realtime` (the gateway's relay). */
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'outbox_pending_pkey' })
  consumer!: string;

  /** The event's `occurred_at`, copied so a consumer reads its rows in order from the key alone. */
  @PrimaryColumn({ name: 'occurred_at', type: 'timestamptz', primaryKeyConstraintName: 'outbox_pending_pkey' })
  occurredAt!: Date;

  @PrimaryColumn({ name: 'event_id', type: 'uuid', primaryKeyConstraintName: 'outbox_pending_pkey' })
  eventID!: string;
}

/** Events of a tenant the retention sweep deleted before a consumer took them; the consumer takes this row. */
@Entity({ name: 'outbox_losses' })
export class OutboxLossEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'outbox_losses_pkey' })
  consumer!: string;

  @PrimaryColumn({ name: 'tenant_id', type: 'uuid', primaryKeyConstraintName: 'outbox_losses_pkey' })
  tenantID!: string;

  @Column({ type: 'bigint' })
  events!: string;

  @Column({ name: 'first_lost_at', type: 'timestamptz', default: () => 'clock_timestamp()' })
  firstLostAt!: Date;
}
