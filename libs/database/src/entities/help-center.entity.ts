import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { TenantEntity } from './tenant.entity';

/**
 * A tenant's help center (plugins-helpdesk). At most one per tenant; created
 * the first time a domain is added while the tenant has the helpdesk plugin
 * connected, and kept if the plugin is later removed.
 */
@Entity({ name: 'help_centers' })
@Index('help_centers_tenant_id_key', ['tenantID'], { unique: true })
export class HelpCenterEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'help_centers_pkey' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantID!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @ManyToOne(() => TenantEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'help_centers_tenant_id_fkey' })
  tenant?: TenantEntity;
}
