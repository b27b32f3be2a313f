import { MigrationInterface, QueryRunner } from 'typeorm';

/** The expiry sweep finds the oldest pending, never verified helpdesk domains by this index alone. */
export class HelpdeskPendingDomainExpiry1764730000000 implements MigrationInterface {
  name = 'HelpdeskPendingDomainExpiry1764730000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX helpdesk_domains_pending_created_at_idx ON helpdesk_domains (created_at) WHERE status = 'pending' AND verified_at IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX helpdesk_domains_pending_created_at_idx`);
  }
}
