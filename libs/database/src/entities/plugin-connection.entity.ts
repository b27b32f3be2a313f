import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { PluginConnectionKind, PluginEntity } from './plugin.entity';
import { TenantEntity } from './tenant.entity';

export const PLUGIN_CONNECTION_STATUSES = ['live', 'removed'] as const;
export type PluginConnectionStatus = (typeof PLUGIN_CONNECTION_STATUSES)[number];

/**
 * One installation of a plugin on a tenant. Removal keeps the row (status
 * `removed`) so that billing and VM teardown can be traced afterwards.
 */
@Entity({ name: 'plugin_connections' })
@Index('plugin_connections_live_tenant_plugin_key', ['tenantID', 'pluginID'], { unique: true, where: `status = 'live'` })
@Index('plugin_connections_plugin_id_idx', ['pluginID'])
@Check('plugin_connections_kind_check', `kind IN ('plain', 'paid', 'hosted')`)
@Check('plugin_connections_status_check', `status IN ('live', 'removed')`)
@Check('plugin_connections_removal_claim_check', `(removal_claim_id IS NULL) = (removal_claimed_until IS NULL)`)
export class PluginConnectionEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'plugin_connections_pkey' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantID!: string;

  @Column({ name: 'plugin_id', type: 'uuid' })
  pluginID!: string;

  /** Copied from the plugin at install time, so teardown follows what was installed. */
  @Column({ type: 'text' })
  kind!: PluginConnectionKind;

  /** SHA-256 (hex) of the connection's random token. */
  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Column({ type: 'text', default: 'live' })
  status!: PluginConnectionStatus;

  /** Billing provider's subscription item, for `paid` connections. */
  @Column({ name: 'subscription_item_id', type: 'text', nullable: true })
  subscriptionItemID!: string | null;

  /** VM provider's machine, for `hosted` connections. */
  @Column({ name: 'vm_id', type: 'text', nullable: true })
  vmID!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'removed_at', type: 'timestamptz', nullable: true })
  removedAt!: Date | null;

  /**
   * A removal in progress on a live connection: who claimed it, and until
   * when the claim holds if its owner never finishes (a replica that died).
   */
  @Column({ name: 'removal_claim_id', type: 'uuid', nullable: true })
  removalClaimID!: string | null;

  @Column({ name: 'removal_claimed_until', type: 'timestamptz', nullable: true })
  removalClaimedUntil!: Date | null;

  @ManyToOne(() => TenantEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'plugin_connections_tenant_id_fkey' })
  tenant?: TenantEntity;

  @ManyToOne(() => PluginEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'plugin_id', foreignKeyConstraintName: 'plugin_connections_plugin_id_fkey' })
  plugin?: PluginEntity;
}
