import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Search of a tenant's messages and contacts (docs/search.md).
 *
 * Messages get one GIN index over an expression: the words of a text
 * message under the 'simple' configuration (lower-cased words, no stemming
 * and no stop words, so Portuguese, Spanish and English text of one tenant
 * are all found by the words they contain), led by tenant_id (btree_gin), so
 * a search reads its own tenant's entries; and a btree of the tenant's
 * messages by time, for common words. The search's statement repeats the
 * expression exactly (apps/services-api/src/conversations/search), or PostgreSQL would
 * not use the index.
 *
 * An expression index rather than a stored generated column: adding a
 * generated column would rewrite `messages` under an ACCESS EXCLUSIVE lock
 * (every read and write of the table waiting for minutes per ten million
 * rows), and TypeORM's schema tools read generated columns' expressions
 * from a metadata table of their own. Building the indexes reads the table
 * once and holds writes (not reads) of `messages` meanwhile; docs/deployment.md's
 * upgrade notes say how to plan for it.
 *
 * Contacts are found by a substring of their name or of one of their
 * handles (ILIKE), served by trigram GIN indexes (pg_trgm) that start with
 * tenant_id. Both extensions are trusted (PostgreSQL 13 and later): a role
 * with CREATE on the database creates them, no superuser needed; earlier
 * migrations created them already, so the statements below are no-ops on
 * an upgraded database.
 */
export class ConversationSearch1765230000000 implements MigrationInterface {
  name = 'ConversationSearch1765230000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS btree_gin`);
    // Only a text message has words: its value is a JSON string (any other kind of value, no words).
    await queryRunner.query(`
      CREATE INDEX messages_search_idx ON messages USING gin (
        tenant_id, (to_tsvector('simple'::regconfig, CASE WHEN jsonb_typeof(value) = 'string' THEN value #>> '{}' ELSE '' END)))`);
    // The tenant's messages newest first: for a common word the planner walks this backward and stops at a full
    // page, instead of reading every match from messages_search_idx to sort them (docs/search.md has the figures).
    await queryRunner.query(`CREATE INDEX messages_tenant_time_idx ON messages (tenant_id, created_at, id)`);
    await queryRunner.query(`CREATE INDEX contacts_name_trgm_idx ON contacts USING gin (tenant_id, name gin_trgm_ops)`);
    await queryRunner.query(`CREATE INDEX contact_handles_handle_trgm_idx ON contact_handles USING gin (tenant_id, handle gin_trgm_ops)`);
    // A tenant's contacts newest first: the order of contact search results.
    await queryRunner.query(`CREATE INDEX contacts_tenant_created_idx ON contacts (tenant_id, created_at DESC, id DESC)`);
  }

  /** The extensions stay: earlier migrations' indexes use them. */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX contacts_tenant_created_idx`);
    await queryRunner.query(`DROP INDEX contact_handles_handle_trgm_idx`);
    await queryRunner.query(`DROP INDEX contacts_name_trgm_idx`);
    await queryRunner.query(`DROP INDEX messages_tenant_time_idx`);
    await queryRunner.query(`DROP INDEX messages_search_idx`);
  }
}
