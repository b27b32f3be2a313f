import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { ContactEntity } from './contact.entity';
import { InboxEntity } from './inbox.entity';
import { OperatorEntity } from './operator.entity';
import { TenantEntity } from './tenant.entity';

/**
 * A conversation with a contact through an inbox. `lastMessageID` and
 * `lastActivityAt` follow the newest message (kept by a trigger on messages);
 * the trigger-kept `contact_session_counts` and the indexes are in migration
 * 1763900000000 (docs/sessions-and-shortcuts.md).
 */
@Entity({ name: 'sessions' })
export class SessionEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'sessions_pkey' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantID!: string;

  @Column({ name: 'contact_id', type: 'uuid' })
  contactID!: string;

  @Column({ name: 'inbox_id', type: 'uuid' })
  inboxID!: string;

  /** The operator the session is assigned to, if any. */
  @Column({ name: 'operator_id', type: 'uuid', nullable: true })
  operatorID!: string | null;

  /** Other operators who took part (transfers, joins). */
  @Column({ name: 'operator_participants_ids', type: 'uuid', array: true, default: () => `'{}'` })
  operatorParticipantsIDs!: string[];

  @Column({ type: 'text' })
  channel!: string;

  @Column({ type: 'text' })
  type!: string;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  /** Whether every operator of the tenant may list it (docs/sessions-and-shortcuts.md, visibility). */
  @Column({ type: 'boolean', default: true })
  listed!: boolean;

  @Column({ name: 'last_message_id', type: 'uuid', nullable: true })
  lastMessageID!: string | null;

  /** Time of the last message, or of creation while there is none: the order of operation 11. */
  @Column({ name: 'last_activity_at', type: 'timestamptz', default: () => 'now()' })
  lastActivityAt!: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'closed_at', type: 'timestamptz', nullable: true })
  closedAt!: Date | null;

  @Column({ name: 'manual_at', type: 'timestamptz', nullable: true })
  manualAt!: Date | null;

  @Column({ name: 'queued_at', type: 'timestamptz', nullable: true })
  queuedAt!: Date | null;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'sessions_tenant_id_fkey' })
  tenant?: TenantEntity;

  @ManyToOne(() => ContactEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'contact_id', foreignKeyConstraintName: 'sessions_contact_id_fkey' })
  contact?: ContactEntity;

  @ManyToOne(() => InboxEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'inbox_id', foreignKeyConstraintName: 'sessions_inbox_id_fkey' })
  inbox?: InboxEntity;

  @ManyToOne(() => OperatorEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'operator_id', foreignKeyConstraintName: 'sessions_operator_id_fkey' })
  operator?: OperatorEntity;
}
