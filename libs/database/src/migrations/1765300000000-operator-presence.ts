import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Operator presence (docs/presence.md): per membership, the status the
 * operator chose over REST and the status in effect, which is the chosen one
 * unless their sockets say otherwise (none live past the grace period:
 * offline; idle past the policy: away). Automatic assignment reads `status`.
 * A membership without a row is offline.
 */
export class OperatorPresence1765300000000 implements MigrationInterface {
  name = 'OperatorPresence1765300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE operator_presence (
        tenant_id uuid NOT NULL,
        operator_id uuid NOT NULL,
        chosen_status text NOT NULL DEFAULT 'online',
        status text NOT NULL DEFAULT 'offline',
        changed_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT operator_presence_pkey PRIMARY KEY (tenant_id, operator_id),
        CONSTRAINT operator_presence_chosen_status_check CHECK (chosen_status IN ('online', 'busy', 'away', 'offline')),
        CONSTRAINT operator_presence_status_check CHECK (status IN ('online', 'busy', 'away', 'offline')),
        CONSTRAINT operator_presence_membership_fkey FOREIGN KEY (tenant_id, operator_id) REFERENCES memberships (tenant_id, operator_id) ON DELETE CASCADE
      )`);
    // Who may take work now: the online operators of a tenant.
    await queryRunner.query(`CREATE INDEX operator_presence_online_idx ON operator_presence (tenant_id, operator_id) WHERE status = 'online'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE operator_presence`);
  }
}
