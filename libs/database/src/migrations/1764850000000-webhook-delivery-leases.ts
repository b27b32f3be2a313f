import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The lease of a delivery's attempt in flight (docs/webhooks.md, Receiving a
 * delivery). A worker claims a delivery by setting `leased_until` past the
 * attempt's time limit; no other worker attempts it, nor another delivery of
 * the same endpoint, until the outcome is recorded (which clears it) or the
 * lease lapses (the worker died mid-attempt: the delivery is attempted again,
 * with the same webhook-id). The index serves "is an attempt in flight for
 * this endpoint", asked at every claim.
 */
export class WebhookDeliveryLeases1764850000000 implements MigrationInterface {
  name = 'WebhookDeliveryLeases1764850000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhook_deliveries ADD COLUMN leased_until timestamptz`);
    await queryRunner.query(
      `CREATE INDEX webhook_deliveries_leased_idx ON webhook_deliveries (endpoint_id, leased_until) WHERE status = 'pending' AND leased_until IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX webhook_deliveries_leased_idx`);
    await queryRunner.query(`ALTER TABLE webhook_deliveries DROP COLUMN leased_until`);
  }
}
