import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { InboxEntity } from './inbox.entity';
import { OperatorEntity } from './operator.entity';
import { TenantEntity } from './tenant.entity';

/** Notification categories; `inbox` ones are counted per inbox (docs/sessions-and-shortcuts.md). */
export const NOTIFICATION_CATEGORIES = ['inbox', 'mention', 'assignment', 'system'] as const;
export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];

/**
 * A notification for one operator in one tenant; unread while `readAt` is
 * null. Unread counts are kept in `notification_unread_counts` by triggers.
 */
@Entity({ name: 'notifications' })
export class NotificationEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'notifications_pkey' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantID!: string;

  @Column({ name: 'operator_id', type: 'uuid' })
  operatorID!: string;

  @Column({ type: 'text' })
  category!: NotificationCategory;

  /** Set exactly for `inbox` notifications. */
  @Column({ name: 'inbox_id', type: 'uuid', nullable: true })
  inboxID!: string | null;

  @Column({ name: 'session_id', type: 'uuid', nullable: true })
  sessionID!: string | null;

  @Column({ name: 'read_at', type: 'timestamptz', nullable: true })
  readAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'notifications_tenant_id_fkey' })
  tenant?: TenantEntity;

  @ManyToOne(() => OperatorEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'operator_id', foreignKeyConstraintName: 'notifications_operator_id_fkey' })
  operator?: OperatorEntity;

  @ManyToOne(() => InboxEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'inbox_id', foreignKeyConstraintName: 'notifications_inbox_id_fkey' })
  inbox?: InboxEntity;
}
