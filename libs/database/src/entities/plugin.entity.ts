import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * How a plugin's connections are torn down: `plain` needs nothing, `paid`
 * carries a billing subscription item, `hosted` runs on a provider VM.
 */
export const PLUGIN_CONNECTION_KINDS = ['plain', 'paid', 'hosted'] as const;
export type PluginConnectionKind = (typeof PLUGIN_CONNECTION_KINDS)[number];

@Entity({ name: 'plugins' })
@Check('plugins_connection_kind_check', `connection_kind IN ('plain', 'paid', 'hosted')`)
@Check('plugins_trace_endpoint_url_check', `trace_endpoint_url IS NULL OR trace_endpoint_url ~ '^https?://'`)
export class PluginEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'plugins_pkey' })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  /** Stable public name, e.g. `urn:plugin:helpdesk`. */
  @Index('plugins_urn_key', { unique: true })
  @Column({ type: 'text' })
  urn!: string;

  @Column({ name: 'icon_url', type: 'text', nullable: true })
  iconUrl!: string | null;

  /** Kind given to the connections made when the plugin is installed. */
  @Column({ name: 'connection_kind', type: 'text', default: 'plain' })
  connectionKind!: PluginConnectionKind;

  /** Billing provider's price of a `paid` plugin. */
  @Column({ name: 'billing_price_id', type: 'text', nullable: true })
  billingPriceID!: string | null;

  /** VM image a `hosted` plugin's connections run. */
  @Column({ name: 'vm_image', type: 'text', nullable: true })
  vmImage!: string | null;

  /**
   * Base URL of the plugin's processing-trace endpoint (docs/protocols/processing-traces.openapi.yaml);
   * null for plugins that provide no traces.
   */
  @Column({ name: 'trace_endpoint_url', type: 'text', nullable: true })
  traceEndpointUrl!: string | null;

  /** SHA-256 (hex) of the plugin's random token; the token itself is never stored. */
  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
