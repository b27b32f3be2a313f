import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { TenantEntity } from './tenant.entity';

export const MESSAGING_CHANNELS = ['whatsapp'] as const;
export type MessagingChannel = (typeof MESSAGING_CHANNELS)[number];

export const MESSAGING_CHANNEL_STATUSES = ['connected', 'disconnected'] as const;
export type MessagingChannelStatus = (typeof MESSAGING_CHANNEL_STATUSES)[number];

/**
 * A tenant's connected messaging channel (campaignModelChannelID): what the
 * message-template provider needs to act for the tenant.
 */
@Entity({ name: 'messaging_channels' })
@Index('messaging_channels_tenant_id_idx', ['tenantID'])
@Index('messaging_channels_channel_account_idx', ['channel', 'accountID'])
export class MessagingChannelEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'messaging_channels_pkey' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantID!: string;

  @Column({ type: 'text' })
  channel!: MessagingChannel;

  @Column({ name: 'display_name', type: 'text' })
  displayName!: string;

  /** The provider account that owns the templates (WhatsApp Business Account id). */
  @Column({ name: 'account_id', type: 'text' })
  accountID!: string;

  /** The sending number at the provider (phone number id). */
  @Column({ name: 'phone_number_id', type: 'text' })
  phoneNumberID!: string;

  /** Where the channel's provider credentials live (a secret's name), never the secret itself. */
  @Column({ name: 'credentials_ref', type: 'text' })
  credentialsRef!: string;

  @Column({ type: 'text', default: 'connected' })
  status!: MessagingChannelStatus;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'messaging_channels_tenant_id_fkey' })
  tenant?: TenantEntity;
}
