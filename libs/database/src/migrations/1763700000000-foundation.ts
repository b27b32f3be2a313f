import { MigrationInterface, QueryRunner } from 'typeorm';

/** Tenants, operators, memberships, plugins and plugin connections. */
export class Foundation1763700000000 implements MigrationInterface {
  name = 'Foundation1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE tenants (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT tenants_pkey PRIMARY KEY (id)
      )`);
    await queryRunner.query(`
      CREATE TABLE operators (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        email text NOT NULL,
        firstname text NOT NULL,
        lastname text,
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT operators_pkey PRIMARY KEY (id)
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX operators_email_key ON operators (email)`);
    await queryRunner.query(`
      CREATE TABLE memberships (
        tenant_id uuid NOT NULL,
        operator_id uuid NOT NULL,
        role text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT memberships_pkey PRIMARY KEY (tenant_id, operator_id),
        CONSTRAINT memberships_role_check CHECK (role IN ('owner', 'member')),
        CONSTRAINT memberships_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
        CONSTRAINT memberships_operator_id_fkey FOREIGN KEY (operator_id) REFERENCES operators (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE INDEX memberships_operator_id_idx ON memberships (operator_id)`);
    await queryRunner.query(`
      CREATE TABLE plugins (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        name text NOT NULL,
        urn text NOT NULL,
        icon_url text,
        connection_kind text NOT NULL DEFAULT 'plain',
        token_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT plugins_pkey PRIMARY KEY (id),
        CONSTRAINT plugins_connection_kind_check CHECK (connection_kind IN ('plain', 'paid', 'hosted'))
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX plugins_urn_key ON plugins (urn)`);
    await queryRunner.query(`
      CREATE TABLE plugin_connections (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL,
        plugin_id uuid NOT NULL,
        kind text NOT NULL,
        token_hash text NOT NULL,
        status text NOT NULL DEFAULT 'live',
        subscription_item_id text,
        vm_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        removed_at timestamptz,
        CONSTRAINT plugin_connections_pkey PRIMARY KEY (id),
        CONSTRAINT plugin_connections_kind_check CHECK (kind IN ('plain', 'paid', 'hosted')),
        CONSTRAINT plugin_connections_status_check CHECK (status IN ('live', 'removed')),
        CONSTRAINT plugin_connections_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
        CONSTRAINT plugin_connections_plugin_id_fkey FOREIGN KEY (plugin_id) REFERENCES plugins (id) ON DELETE RESTRICT
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX plugin_connections_live_tenant_plugin_key ON plugin_connections (tenant_id, plugin_id) WHERE status = 'live'`,
    );
    await queryRunner.query(`CREATE INDEX plugin_connections_plugin_id_idx ON plugin_connections (plugin_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE plugin_connections`);
    await queryRunner.query(`DROP TABLE plugins`);
    await queryRunner.query(`DROP TABLE memberships`);
    await queryRunner.query(`DROP TABLE operators`);
    await queryRunner.query(`DROP TABLE tenants`);
  }
}
