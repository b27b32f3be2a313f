import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Installs leave no provider resource unrecorded, and no delete drops pending
 * work (docs/plugin-connections.md, docs/offboarding.md):
 *
 * - `plugin_connection_install_intents`: an install writes its intent, in a
 *   transaction of its own, before it calls any provider. The intent's id is
 *   the connection's id to be, and the provider idempotency keys derive from
 *   it. An intent left pending by a crash is finished or undone by the
 *   reconciler, which asks the provider again with the same key and the same
 *   parameters (`provider_request`) to learn what was made; the claim (`claim_id`, `claimed_until`) makes one worker at a
 *   time act on it.
 * - `billing_cancellations` loses its foreign key: a cancellation outlives its
 *   connection (a purge of removed rows must not drop it) and also records the
 *   items of installs that never got a connection.
 * - Connections and help centers (and so domains) no longer cascade from the
 *   tenant, nor domains from their help center: deleting them is refused while
 *   they remain, so a tenant is offboarded through the removal flows, which
 *   release the provider side.
 */
export class InstallIntentsAndRestrict1764700000000 implements MigrationInterface {
  name = 'InstallIntentsAndRestrict1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE plugin_connection_install_intents (
        id uuid NOT NULL,
        tenant_id uuid NOT NULL,
        plugin_id uuid NOT NULL,
        kind text NOT NULL,
        provider_request jsonb NOT NULL,
        generation integer NOT NULL DEFAULT 0,
        state text NOT NULL DEFAULT 'pending',
        claim_id uuid NOT NULL,
        claimed_until timestamptz NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        headers jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        CONSTRAINT plugin_connection_install_intents_pkey PRIMARY KEY (id),
        CONSTRAINT plugin_connection_install_intents_kind_check CHECK (kind IN ('plain', 'paid', 'hosted')),
        CONSTRAINT plugin_connection_install_intents_state_check CHECK (state IN ('pending', 'installed', 'undone')),
        CONSTRAINT plugin_connection_install_intents_completed_check CHECK ((state = 'pending') = (completed_at IS NULL))
      )`);
    // The reconciler's only query: pending intents whose claim lapsed.
    await queryRunner.query(
      `CREATE INDEX plugin_connection_install_intents_due_idx ON plugin_connection_install_intents (claimed_until) WHERE state = 'pending'`,
    );
    await queryRunner.query(`ALTER TABLE billing_cancellations DROP CONSTRAINT billing_cancellations_plugin_connection_id_fkey`);
    await this.replaceForeignKey(queryRunner, 'plugin_connections', 'plugin_connections_tenant_id_fkey', 'tenant_id', 'tenants', 'RESTRICT');
    await this.replaceForeignKey(queryRunner, 'help_centers', 'help_centers_tenant_id_fkey', 'tenant_id', 'tenants', 'RESTRICT');
    await this.replaceForeignKey(queryRunner, 'helpdesk_domains', 'helpdesk_domains_help_center_id_fkey', 'help_center_id', 'help_centers', 'RESTRICT');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await this.replaceForeignKey(queryRunner, 'helpdesk_domains', 'helpdesk_domains_help_center_id_fkey', 'help_center_id', 'help_centers', 'CASCADE');
    await this.replaceForeignKey(queryRunner, 'help_centers', 'help_centers_tenant_id_fkey', 'tenant_id', 'tenants', 'CASCADE');
    await this.replaceForeignKey(queryRunner, 'plugin_connections', 'plugin_connections_tenant_id_fkey', 'tenant_id', 'tenants', 'CASCADE');
    await queryRunner.query(`DELETE FROM billing_cancellations b WHERE NOT EXISTS (SELECT 1 FROM plugin_connections c WHERE c.id = b.plugin_connection_id)`);
    await queryRunner.query(
      `ALTER TABLE billing_cancellations ADD CONSTRAINT billing_cancellations_plugin_connection_id_fkey
         FOREIGN KEY (plugin_connection_id) REFERENCES plugin_connections (id) ON DELETE CASCADE`,
    );
    await queryRunner.query(`DROP TABLE plugin_connection_install_intents`);
  }

  private async replaceForeignKey(
    queryRunner: QueryRunner,
    table: string,
    constraint: string,
    column: string,
    referenced: string,
    onDelete: 'RESTRICT' | 'CASCADE',
  ): Promise<void> {
    await queryRunner.query(`ALTER TABLE ${table} DROP CONSTRAINT ${constraint}`);
    await queryRunner.query(`ALTER TABLE ${table} ADD CONSTRAINT ${constraint} FOREIGN KEY (${column}) REFERENCES ${referenced} (id) ON DELETE ${onDelete}`);
  }
}
