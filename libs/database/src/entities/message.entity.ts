import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { SessionEntity } from './session.entity';
import { TenantEntity } from './tenant.entity';

export const MESSAGE_DIRECTIONS = ['inbound', 'outbound'] as const;
export type MessageDirection = (typeof MESSAGE_DIRECTIONS)[number];

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
