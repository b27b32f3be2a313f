import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The real-time gateway's mark on the outbox (docs/realtime.md, Where events
 * come from). Its relay copies every committed event into the tenant's Redis
 * stream and sets `streamed_at` in the same transaction that claimed it; the
 * webhook dispatcher keeps its own mark (`dispatched_at`), so the two readers
 * of the outbox never wait on each other. The retention sweep deletes an
 * event only once both marks are set. The partial index serves the relay's
 * claim of the oldest unstreamed events.
 */
export class WebhookEventsStreamed1765000000000 implements MigrationInterface {
  name = 'WebhookEventsStreamed1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhook_events ADD COLUMN streamed_at timestamptz`);
    await queryRunner.query(`CREATE INDEX webhook_events_unstreamed_idx ON webhook_events (occurred_at, id) WHERE streamed_at IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX webhook_events_unstreamed_idx`);
    await queryRunner.query(`ALTER TABLE webhook_events DROP COLUMN streamed_at`);
  }
}
