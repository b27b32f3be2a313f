import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { HelpCenterEntity } from './help-center.entity';

export const HELPDESK_DOMAIN_STATUSES = ['pending', 'active'] as const;
export type HelpdeskDomainStatus = (typeof HELPDESK_DOMAIN_STATUSES)[number];

/**
 * A custom domain of a help center (docs/helpdesk-domains.md, Data). The hostname is
 * stored normalised (lower-case ASCII, IDN labels in punycode) and is unique
 * across the platform: one hostname can point at one help center only.
 */
@Entity({ name: 'helpdesk_domains' })
@Check('helpdesk_domains_status_check', `status IN ('pending', 'active')`)
@Check('helpdesk_domains_hostname_check', `char_length(hostname) BETWEEN 1 AND 253 AND hostname = lower(hostname)`)
@Index('helpdesk_domains_hostname_key', ['hostname'], { unique: true })
@Index('helpdesk_domains_help_center_id_idx', ['helpCenterID', 'hostname'])
@Index('helpdesk_domains_pending_created_at_idx', ['createdAt'], { where: `status = 'pending' AND verified_at IS NULL` })
export class HelpdeskDomainEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'helpdesk_domains_pkey' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantID!: string;

  @Column({ name: 'help_center_id', type: 'uuid' })
  helpCenterID!: string;

  /** `domainHostname`. */
  @Column({ type: 'text' })
  hostname!: string;

  /**
   * `domainProviderID`: the custom hostname's id at the provisioning provider.
   * Null only between reserving the hostname here and registering it there.
   */
  @Column({ name: 'provider_id', type: 'text', nullable: true })
  providerID!: string | null;

  @Column({ type: 'text', default: 'pending' })
  status!: HelpdeskDomainStatus;

  @Column({ name: 'last_checked_at', type: 'timestamptz', nullable: true })
  lastCheckedAt!: Date | null;

  /** Stamped once, the first time the domain turns active. */
  @Column({ name: 'verified_at', type: 'timestamptz', nullable: true })
  verifiedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @ManyToOne(() => HelpCenterEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'help_center_id', foreignKeyConstraintName: 'helpdesk_domains_help_center_id_fkey' })
  helpCenter?: HelpCenterEntity;
}
