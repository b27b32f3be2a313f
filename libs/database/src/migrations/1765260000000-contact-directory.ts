import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A tenant's contacts (docs/conversations.md#contacts): newest first by
 * keyset, and found by a handle whatever its channel.
 */
export class ContactDirectory1765260000000 implements MigrationInterface {
  name = 'ContactDirectory1765260000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX contacts_tenant_newest_idx ON contacts (tenant_id, created_at DESC, id DESC)`);
    // The primary key (tenant_id, channel, handle) needs the channel; a lookup by handle alone reads this one.
    await queryRunner.query(`CREATE INDEX contact_handles_tenant_handle_idx ON contact_handles (tenant_id, handle)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX contact_handles_tenant_handle_idx`);
    await queryRunner.query(`DROP INDEX contacts_tenant_newest_idx`);
  }
}
