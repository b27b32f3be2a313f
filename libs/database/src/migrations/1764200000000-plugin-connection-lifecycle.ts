import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What installing and removing plugin connections needs: the billing
 * subscription of a tenant, the price and VM image of a plugin, and the
 * durable record of each subscription item to cancel at the billing provider.
 */
export class PluginConnectionLifecycle1764200000000 implements MigrationInterface {
  name = 'PluginConnectionLifecycle1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE tenants ADD COLUMN billing_subscription_id text`);
    await queryRunner.query(`ALTER TABLE plugins ADD COLUMN billing_price_id text`);
    await queryRunner.query(`ALTER TABLE plugins ADD COLUMN vm_image text`);
    await queryRunner.query(`
      CREATE TABLE billing_cancellations (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        plugin_connection_id uuid NOT NULL,
        subscription_item_id text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        CONSTRAINT billing_cancellations_pkey PRIMARY KEY (id),
        CONSTRAINT billing_cancellations_plugin_connection_id_fkey FOREIGN KEY (plugin_connection_id) REFERENCES plugin_connections (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX billing_cancellations_subscription_item_id_key ON billing_cancellations (subscription_item_id)`);
    // The worker's only query: due, unfinished cancellations, oldest due first.
    await queryRunner.query(
      `CREATE INDEX billing_cancellations_due_idx ON billing_cancellations (next_attempt_at) WHERE completed_at IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE billing_cancellations`);
    await queryRunner.query(`ALTER TABLE plugins DROP COLUMN vm_image`);
    await queryRunner.query(`ALTER TABLE plugins DROP COLUMN billing_price_id`);
    await queryRunner.query(`ALTER TABLE tenants DROP COLUMN billing_subscription_id`);
  }
}
