import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { OperatorEntity } from './operator.entity';
import { TenantEntity } from './tenant.entity';

export const MEMBERSHIP_ROLES = ['owner', 'member'] as const;
export type MembershipRole = (typeof MEMBERSHIP_ROLES)[number];

/** An operator's place in a tenant. Owners may do everything a member may, and more. */
@Entity({ name: 'memberships' })
@Index('memberships_operator_id_idx', ['operatorID'])
@Check('memberships_role_check', `role IN ('owner', 'member')`)
export class MembershipEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid', primaryKeyConstraintName: 'memberships_pkey' })
  tenantID!: string;

  @PrimaryColumn({ name: 'operator_id', type: 'uuid', primaryKeyConstraintName: 'memberships_pkey' })
  operatorID!: string;

  @Column({ type: 'text' })
  role!: MembershipRole;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'memberships_tenant_id_fkey' })
  tenant?: TenantEntity;

  @ManyToOne(() => OperatorEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'operator_id', foreignKeyConstraintName: 'memberships_operator_id_fkey' })
  operator?: OperatorEntity;
}
