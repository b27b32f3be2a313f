import { MigrationInterface, QueryRunner } from 'typeorm';

/** Help centers (one per tenant) and their custom domains (plugins-helpdesk). */
export class HelpdeskDomains1764100000000 implements MigrationInterface {
  name = 'HelpdeskDomains1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE help_centers (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT help_centers_pkey PRIMARY KEY (id),
        CONSTRAINT help_centers_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX help_centers_tenant_id_key ON help_centers (tenant_id)`);
    await queryRunner.query(`
      CREATE TABLE helpdesk_domains (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL,
        help_center_id uuid NOT NULL,
        hostname text NOT NULL,
        provider_id text,
        status text NOT NULL DEFAULT 'pending',
        last_checked_at timestamptz,
        verified_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT helpdesk_domains_pkey PRIMARY KEY (id),
        CONSTRAINT helpdesk_domains_status_check CHECK (status IN ('pending', 'active')),
        CONSTRAINT helpdesk_domains_hostname_check CHECK (char_length(hostname) BETWEEN 1 AND 253 AND hostname = lower(hostname)),
        CONSTRAINT helpdesk_domains_help_center_id_fkey FOREIGN KEY (help_center_id) REFERENCES help_centers (id) ON DELETE CASCADE
      )`);
    // One hostname, one help center, platform-wide; also the lookup by hostname.
    await queryRunner.query(`CREATE UNIQUE INDEX helpdesk_domains_hostname_key ON helpdesk_domains (hostname)`);
    // A help center's list, in hostname order.
    await queryRunner.query(`CREATE INDEX helpdesk_domains_help_center_id_idx ON helpdesk_domains (help_center_id, hostname)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE helpdesk_domains`);
    await queryRunner.query(`DROP TABLE help_centers`);
  }
}
