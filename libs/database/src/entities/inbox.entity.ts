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

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'inboxes_tenant_id_fkey' })
  tenant?: TenantEntity;
}
