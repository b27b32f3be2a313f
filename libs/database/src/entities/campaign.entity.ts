import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { CampaignModelEntity } from './campaign-model.entity';
import { TenantEntity } from './tenant.entity';

/** Campaign statuses, in the order campaign stats list them (docs/campaign-models.md). */
export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'running', 'paused', 'completed', 'canceled', 'failed'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** A campaign: a send of a campaign model to an audience. Only its status is used so far (operation 6). */
@Entity({ name: 'campaigns' })
@Index('campaigns_tenant_status_idx', ['tenantID', 'status'])
@Index('campaigns_campaign_model_id_idx', ['campaignModelID'])
export class CampaignEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'campaigns_pkey' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantID!: string;

  @Column({ name: 'campaign_model_id', type: 'uuid', nullable: true })
  campaignModelID!: string | null;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  status!: CampaignStatus;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'campaigns_tenant_id_fkey' })
  tenant?: TenantEntity;

  @ManyToOne(() => CampaignModelEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'campaign_model_id', foreignKeyConstraintName: 'campaigns_campaign_model_id_fkey' })
  campaignModel?: CampaignModelEntity;
}
