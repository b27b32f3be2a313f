import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { OperatorEntity } from './operator.entity';
import { TenantEntity } from './tenant.entity';

export const SHORTCUT_SCOPES = ['tenant-based', 'user-based'] as const;
export type ShortcutScope = (typeof SHORTCUT_SCOPES)[number];

/** One element of `shortcutContents`. */
export interface ShortcutContent {
  contentID: string;
  contentKey: string;
  contentValue: string;
}

/**
 * An operator shortcut: `tenant-based` (company-wide) or `user-based`
 * (personal to `operatorID`). Indexes and the trigger-kept `shortcut_counts`
 * are in migration 1763900000000 (docs/sessions-and-shortcuts.md).
 */
@Entity({ name: 'shortcuts' })
export class ShortcutEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'shortcuts_pkey' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantID!: string;

  @Column({ name: 'organization_id', type: 'uuid' })
  organizationID!: string;

  /** The owner of a personal shortcut; the author of a company-wide one. */
  @Column({ name: 'operator_id', type: 'uuid' })
  operatorID!: string;

  @Column({ type: 'text' })
  scope!: ShortcutScope;

  /** Ordered with the collation `shortcut_bang_order` (case- and accent-insensitive). */
  @Column({ type: 'text' })
  bang!: string;

  @Column({ type: 'text', default: '' })
  preview!: string;

  @Column({ type: 'jsonb', default: () => `'[]'` })
  contents!: ShortcutContent[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'shortcuts_tenant_id_fkey' })
  tenant?: TenantEntity;

  @ManyToOne(() => OperatorEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'operator_id', foreignKeyConstraintName: 'shortcuts_operator_id_fkey' })
  operator?: OperatorEntity;
}
