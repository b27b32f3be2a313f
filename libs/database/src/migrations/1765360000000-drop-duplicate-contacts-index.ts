import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `contacts_tenant_created_idx` (1765230000000-conversation-search) and
 * `contacts_tenant_newest_idx` (1765260000000-contact-directory) are the
 * same btree, `(tenant_id, created_at DESC, id DESC)` over every row: one
 * serves both the contact list and the order of contact search results, and
 * the other only doubles the cost of every insert into `contacts` and its
 * size on disk. The one kept is the one the contact list's code and docs
 * name. Dropping an index holds `contacts` for an instant once running
 * statements on it finish; nothing is read or rewritten. Down builds it
 * again as it was.
 */
export class DropDuplicateContactsIndex1765360000000 implements MigrationInterface {
  name = 'DropDuplicateContactsIndex1765360000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX contacts_tenant_created_idx`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX contacts_tenant_created_idx ON contacts (tenant_id, created_at DESC, id DESC)`);
  }
}
