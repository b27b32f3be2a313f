import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'tenants' })
export class TenantEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'tenants_pkey' })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  /** Billing provider's subscription that paid plugins add items to. */
  @Column({ name: 'billing_subscription_id', type: 'text', nullable: true })
  billingSubscriptionID!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
