import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { PluginConnectionEntity } from './plugin-connection.entity';

/**
 * A subscription item to cancel at the billing provider, written in the same
 * transaction as the removal of its connection and retried until the
 * provider confirms (an outbox row: never lost, done at least once).
 */
@Entity({ name: 'billing_cancellations' })
@Index('billing_cancellations_subscription_item_id_key', ['subscriptionItemId'], { unique: true })
@Index('billing_cancellations_due_idx', ['nextAttemptAt'], { where: 'completed_at IS NULL' })
export class BillingCancellationEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'billing_cancellations_pkey' })
  id!: string;

  @Column({ name: 'plugin_connection_id', type: 'uuid' })
  pluginConnectionId!: string;

  @Column({ name: 'subscription_item_id', type: 'text' })
  subscriptionItemId!: string;

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

  @ManyToOne(() => PluginConnectionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'plugin_connection_id', foreignKeyConstraintName: 'billing_cancellations_plugin_connection_id_fkey' })
  pluginConnection?: PluginConnectionEntity;
}
