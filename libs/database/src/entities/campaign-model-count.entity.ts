import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Live (not deleted) campaign models per tenant, kept exact by triggers on
 * campaign_models in the same transaction as the rows: the list's totalCount
 * without counting a tenant's rows.
 */
@Entity({ name: 'campaign_model_counts' })
export class CampaignModelCountEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid', primaryKeyConstraintName: 'campaign_model_counts_pkey' })
  tenantID!: string;

  @Column({ name: 'live_count', type: 'bigint', default: 0 })
  liveCount!: string;
}
