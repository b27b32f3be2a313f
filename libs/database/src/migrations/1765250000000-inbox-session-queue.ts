import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An inbox's session queue (docs/conversations.md#reading): the sessions of
 * one inbox, most recently active first, where a session's activity is its
 * last message or its last change (take, assign, transfer, join, close),
 * `GREATEST(last_activity_at, updated_at)`. Two indexes of that order, so a
 * page is one walk from the cursor whatever the inbox's history:
 *
 * - every session of the inbox (the closed view, and no state filter);
 * - the open ones only (queued and assigned, and the counts of the queue):
 *   closed sessions pile up for good, open ones do not, so the queue's walk
 *   and its counts cost what the live queue holds, not the inbox's past.
 *
 * The INCLUDE columns let the state, assignee and visibility filters be
 * checked without the heap. No update of a session becomes more costly than
 * it was: each that moves `updated_at` already changed an indexed column
 * (`last_activity_at`, `operator_id`, `operator_participants_ids`,
 * `closed_at`) or is a join, which changes an included one.
 */
export class InboxSessionQueue1765250000000 implements MigrationInterface {
  name = 'InboxSessionQueue1765250000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE INDEX sessions_inbox_activity_idx ON sessions (tenant_id, inbox_id, (GREATEST(last_activity_at, updated_at)) DESC, id DESC)
        INCLUDE (closed_at, operator_id, listed, operator_participants_ids)`);
    await queryRunner.query(`
      CREATE INDEX sessions_inbox_open_activity_idx ON sessions (tenant_id, inbox_id, (GREATEST(last_activity_at, updated_at)) DESC, id DESC)
        INCLUDE (operator_id, listed, operator_participants_ids) WHERE closed_at IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX sessions_inbox_open_activity_idx`);
    await queryRunner.query(`DROP INDEX sessions_inbox_activity_idx`);
  }
}
