import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { TenantEntity } from './tenant.entity';

/** A channel connection of the tenant (a WhatsApp number, a web chat...) that sessions arrive through. */
@Entity({ name: 'inboxes' })
@Index('inboxes_tenant_id_idx', ['tenantID'])
export class InboxEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'inboxes_pkey' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantID!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  channel!: string;

  /** The channel plugin connection (core-tenants') that posts to this inbox; null for inboxes made before connections owned them. No foreign key: see migration 1764900000000. */
  @Column({ name: 'plugin_connection_id', type: 'uuid', nullable: true })
  pluginConnectionID!: string | null;

  /** Set when an owner removed the inbox: its sessions keep naming it, nothing posts to it. */
  @Column({ name: 'removed_at', type: 'timestamptz', nullable: true })
  removedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'inboxes_tenant_id_fkey' })
  tenant?: TenantEntity;
}
