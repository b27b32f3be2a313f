import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A removal in progress is recorded on the connection as a claim with a
 * lease (docs/plugin-connections.md), so that deleting a hosted connection
 * calls the VM provider outside any transaction and holds no row lock:
 * the claim tells a concurrent delete to wait for the outcome, and a claim
 * left by a replica that died lapses with its lease. The connection stays
 * `live` while claimed: until the removal succeeds, it is kept.
 */
export class PluginConnectionRemovalClaims1764410000000 implements MigrationInterface {
  name = 'PluginConnectionRemovalClaims1764410000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE plugin_connections ADD COLUMN removal_claim_id uuid`);
    await queryRunner.query(`ALTER TABLE plugin_connections ADD COLUMN removal_claimed_until timestamptz`);
    await queryRunner.query(
      `ALTER TABLE plugin_connections ADD CONSTRAINT plugin_connections_removal_claim_check
         CHECK ((removal_claim_id IS NULL) = (removal_claimed_until IS NULL))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE plugin_connections DROP CONSTRAINT plugin_connections_removal_claim_check`);
    await queryRunner.query(`ALTER TABLE plugin_connections DROP COLUMN removal_claimed_until`);
    await queryRunner.query(`ALTER TABLE plugin_connections DROP COLUMN removal_claim_id`);
  }
}
