import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A subscription item to cancel at the billing provider, written in the same
 * transaction as the removal of its connection and retried until the
 * provider confirms (an outbox row: never lost, done at least once). Also
 * written for the item of an install that never got its connection. No
 * foreign key: the row outlives its connection, so purging removed
 * connections never drops a cancellation still to do.
 */
@Entity({ name: 'billing_cancellations' })
@Index('billing_cancellations_subscription_item_id_key', ['subscriptionItemID'], { unique: true })
@Index('billing_cancellations_due_idx', ['nextAttemptAt'], { where: 'completed_at IS NULL' })
export class BillingCancellationEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'billing_cancellations_pkey' })
  id!: string;

  /** The connection (or the undone install's connection-to-be) the item belonged to. */
  @Column({ name: 'plugin_connection_id', type: 'uuid' })
  pluginConnectionID!: string;

  @Column({ name: 'subscription_item_id', type: 'text' })
  subscriptionItemID!: string;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt!: Date;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  /** Request id and trace context of the removal that recorded it (see the migration). */
  @Column({ type: 'jsonb', nullable: true })
  headers!: Record<string, string> | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;
}
