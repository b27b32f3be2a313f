import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { PluginConnectionKind } from './plugin.entity';

export const INSTALL_INTENT_STATES = ['pending', 'installed', 'undone'] as const;
export type InstallIntentState = (typeof INSTALL_INTENT_STATES)[number];

/**
 * An install's intent, committed before any provider call
 * (docs/plugin-connections.md): its id is the connection's id to be, and the
 * provider idempotency keys derive from it. `installed` once the connection
 * is written; `undone` once the reconciler released what the providers made.
 */
@Entity({ name: 'plugin_connection_install_intents' })
@Index('plugin_connection_install_intents_due_idx', ['claimedUntil'], { where: "state = 'pending'" })
export class PluginConnectionInstallIntentEntity {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'plugin_connection_install_intents_pkey' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantID!: string;

  @Column({ name: 'plugin_id', type: 'uuid' })
  pluginID!: string;

  @Column({ type: 'text' })
  kind!: PluginConnectionKind;

  /** The exact parameters of the provider create, so a replay under the same key matches it. */
  @Column({ name: 'provider_request', type: 'jsonb' })
  providerRequest!: Record<string, string>;

  /** Bumped when an undone intent is asked again, so its provider keys are fresh. */
  @Column({ type: 'integer', default: 0 })
  generation!: number;

  @Column({ type: 'text', default: 'pending' })
  state!: InstallIntentState;

  @Column({ name: 'claim_id', type: 'uuid' })
  claimID!: string;

  @Column({ name: 'claimed_until', type: 'timestamptz' })
  claimedUntil!: Date;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  /** Request id and trace context of the install, so the reconciler's work joins it. */
  @Column({ type: 'jsonb', nullable: true })
  headers!: Record<string, string> | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;
}
