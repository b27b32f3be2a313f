import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { MessagingChannelEntity } from './messaging-channel.entity';
import { TenantEntity } from './tenant.entity';

/** campaignModelStatus values (docs/campaign-models.md has the transitions). */
export const CAMPAIGN_MODEL_STATUSES = [
  'awaiting_submission',
  'evaluating',
  'approved',
  'refused',
  'paused',
  'disabled',
  'flagged',
  'archived',
  'deleted',
] as const;
export type CampaignModelStatus = (typeof CAMPAIGN_MODEL_STATUSES)[number];

/**
 * A campaign model: a message template of a tenant on one of its messaging
 * channels. The SQL lists and the migration are authoritative for indexes;
 * the ones declared here are those the migration names.
 */
@Entity({ name: 'campaign_models' })
@Index('campaign_models_tenant_channel_name_key', ['tenantID', 'channelID', 'name'], { unique: true })
@Index('campaign_models_tenant_created_idx', ['tenantID', 'createdAt', 'id'], { where: 'deleted_at IS NULL' })
@Index('campaign_models_tenant_id_idx', ['tenantID', 'id'], { where: 'deleted_at IS NULL' })
@Index('campaign_models_tenant_status_idx', ['tenantID', 'status', 'createdAt', 'id'], { where: 'deleted_at IS NULL' })
@Index('campaign_models_tenant_type_idx', ['tenantID', 'type', 'createdAt', 'id'], { where: 'deleted_at IS NULL' })
@Index('campaign_models_tenant_channel_idx', ['tenantID', 'channel', 'createdAt', 'id'], { where: 'deleted_at IS NULL' })
@Index('campaign_models_tenant_channel_id_idx', ['tenantID', 'channelID', 'createdAt', 'id'], { where: 'deleted_at IS NULL' })
@Index('campaign_models_external_id_idx', ['externalID', 'tenantID'], { where: 'external_id IS NOT NULL' })
export class CampaignModelEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'campaign_models_pkey' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantID!: string;

  @Column({ type: 'text' })
  channel!: string;

  @Column({ name: 'channel_id', type: 'uuid' })
  channelID!: string;

  /** Normalised to the provider's rules: [a-z0-9_], 1-512 characters; C collation. */
  @Column({ type: 'text', collation: 'C' })
  name!: string;

  @Column({ type: 'text' })
  type!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  /** Template language at the provider (e.g. pt_BR), from campaignModelGatewayMeta.language. */
  @Column({ type: 'text' })
  language!: string;

  @Column({ type: 'text' })
  status!: CampaignModelStatus;

  @Column({ name: 'external_id', type: 'text', nullable: true })
  externalID!: string | null;

  @Column({ name: 'gateway_meta', type: 'jsonb', default: {} })
  gatewayMeta!: Record<string, unknown>;

  @Column({ name: 'gateway_raw', type: 'jsonb', default: {} })
  gatewayRaw!: Record<string, unknown>;

  @Column({ type: 'jsonb', default: {} })
  meta!: Record<string, unknown>;

  @Column({ type: 'text', array: true, default: [] })
  tags!: string[];

  @Column({ type: 'jsonb' })
  slots!: Record<string, unknown>;

  @Column({ name: 'model_variables', type: 'jsonb', default: [] })
  modelVariables!: unknown[];

  @Column({ name: 'error_code', type: 'integer', nullable: true })
  errorCode!: number | null;

  @Column({ name: 'error_message', type: 'text', nullable: true })
  errorMessage!: string | null;

  /** Time of the last provider status applied; older webhook deliveries are ignored. */
  @Column({ name: 'provider_status_at', type: 'timestamptz', nullable: true })
  providerStatusAt!: Date | null;

  @Column({ name: 'submission_attempts', type: 'integer', default: 0 })
  submissionAttempts!: number;

  @Column({ name: 'approved_at', type: 'timestamptz', nullable: true })
  approvedAt!: Date | null;

  @Column({ name: 'evaluating_at', type: 'timestamptz', nullable: true })
  evaluatingAt!: Date | null;

  @Column({ name: 'processing_at', type: 'timestamptz', nullable: true })
  processingAt!: Date | null;

  @Column({ name: 'refused_at', type: 'timestamptz', nullable: true })
  refusedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;

  @Column({ name: 'created_by', type: 'uuid', nullable: true })
  createdBy!: string | null;

  @Column({ name: 'updated_by', type: 'uuid', nullable: true })
  updatedBy!: string | null;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'campaign_models_tenant_id_fkey' })
  tenant?: TenantEntity;

  @ManyToOne(() => MessagingChannelEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'channel_id', foreignKeyConstraintName: 'campaign_models_channel_id_fkey' })
  messagingChannel?: MessagingChannelEntity;
}
