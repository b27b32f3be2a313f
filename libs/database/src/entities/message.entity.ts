import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { SessionEntity } from './session.entity';
import { TenantEntity } from './tenant.entity';

export const MESSAGE_DIRECTIONS = ['inbound', 'outbound'] as const;
export type MessageDirection = (typeof MESSAGE_DIRECTIONS)[number];

/** An outbound message's delivery status, moved by the channel plugin connection (docs/conversations.md). */
export const MESSAGE_DELIVERY_STATUSES = ['pending', 'sent', 'delivered', 'read', 'failed'] as const;
export type MessageDeliveryStatus = (typeof MESSAGE_DELIVERY_STATUSES)[number];

/** One message of a session. Inserting one moves its session's last message (trigger). */
@Entity({ name: 'messages' })
@Index('messages_session_order_idx', ['sessionID', 'createdAt', 'id'])
export class MessageEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'messages_pkey' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantID!: string;

  @Column({ name: 'session_id', type: 'uuid' })
  sessionID!: string;

  @Column({ type: 'text' })
  direction!: MessageDirection;

  /** What the value holds, e.g. `text`, `image`, `template`. */
  @Column({ type: 'text' })
  key!: string;

  @Column({ type: 'integer', default: 0 })
  status!: number;

  /** Any JSON value (a string, an object, an array, a number, null). */
  @Column({ type: 'jsonb', default: () => `'null'` })
  value!: unknown;

  /** The inbox an inbound message arrived on (the scope of its channel message id). */
  @Column({ name: 'inbox_id', type: 'uuid', nullable: true })
  inboxID!: string | null;

  /** The channel's own id of the message, unique per inbox (messages_channel_message_key). */
  @Column({ name: 'channel_message_id', type: 'text', nullable: true })
  channelMessageID!: string | null;

  /** Outbound messages only. */
  @Column({ name: 'delivery_status', type: 'text', nullable: true })
  deliveryStatus!: MessageDeliveryStatus | null;

  /** The operator who wrote an outbound message. */
  @Column({ name: 'operator_id', type: 'uuid', nullable: true })
  operatorID!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'messages_tenant_id_fkey' })
  tenant?: TenantEntity;

  @ManyToOne(() => SessionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'session_id', foreignKeyConstraintName: 'messages_session_id_fkey' })
  session?: SessionEntity;
}
