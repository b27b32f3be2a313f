import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An index on `sessions.last_message_id`, the column of the foreign key
 * that nulls a session's last message when that message is deleted
 * (ON DELETE SET NULL). Without it each deleted message made PostgreSQL
 * scan every session to find the ones naming it: the retention sweep
 * (docs/conversations.md#growth) deletes a batch's messages through the
 * sessions' cascade, so one batch cost (its messages) x (all sessions) and
 * never finished at ten million messages (docs/benchmarks.md#the-conversation-store-at-ten-million-messages).
 * An insert's trigger already updates this column on the session's row.
 */
export class SessionLastMessageIndex1765350000000 implements MigrationInterface {
  name = 'SessionLastMessageIndex1765350000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX sessions_last_message_id_idx ON sessions (last_message_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX sessions_last_message_id_idx`);
  }
}
