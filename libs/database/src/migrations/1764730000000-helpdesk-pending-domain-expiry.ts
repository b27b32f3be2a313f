import { MigrationInterface, QueryRunner } from 'typeorm';

/** The expiry sweep of pending helpdesk domains finds the oldest pending ones by this index alone. */
export class HelpdeskPendingDomainExpiry1764730000000 implements MigrationInterface {
  name = 'HelpdeskPendingDomainExpiry1764730000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX helpdesk_domains_pending_created_at_idx ON helpdesk_domains (created_at) WHERE status = 'pending'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX helpdesk_domains_pending_created_at_idx`);
  }
}
