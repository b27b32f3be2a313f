import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { TenantEntity } from './tenant.entity';

/** A person the tenant talks to, across channels. */
@Entity({ name: 'contacts' })
@Index('contacts_tenant_id_idx', ['tenantID'])
export class ContactEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'contacts_pkey' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantID!: string;

  @Column({ type: 'text' })
  name!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'contacts_tenant_id_fkey' })
  tenant?: TenantEntity;
}
