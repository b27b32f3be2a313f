import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A billing cancellation keeps the request id and trace context of the
 * removal that recorded it (`x-request-id`, `traceparent`, `tracestate`), so
 * the worker's attempts, however late, log and trace as part of that request.
 * Null for rows written before, and when the removal had none to pass on.
 */
export class BillingCancellationHeaders1764400000000 implements MigrationInterface {
  name = 'BillingCancellationHeaders1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE billing_cancellations ADD COLUMN headers jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE billing_cancellations DROP COLUMN headers`);
  }
}
