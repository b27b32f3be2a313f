import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Operator socket leases (docs/presence.md): one row per operator socket a
 * real-time gateway holds, refreshed while it is open (`seen_at`) with the
 * client's last activity, and stamped when it closes. services-api derives
 * `operator_presence.status` from them: an operator whose leases were all
 * last seen longer ago than the offline grace is offline. A replica that dies
 * stops refreshing, so its leases lapse by themselves.
 */
export class OperatorSocketLeases1765310000000 implements MigrationInterface {
  name = 'OperatorSocketLeases1765310000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE operator_socket_leases (
        socket_id uuid NOT NULL,
        tenant_id uuid NOT NULL,
        operator_id uuid NOT NULL,
        connected_at timestamptz NOT NULL DEFAULT now(),
        seen_at timestamptz NOT NULL DEFAULT now(),
        last_activity_at timestamptz NOT NULL DEFAULT now(),
        closed_at timestamptz,
        CONSTRAINT operator_socket_leases_pkey PRIMARY KEY (socket_id),
        CONSTRAINT operator_socket_leases_membership_fkey FOREIGN KEY (tenant_id, operator_id) REFERENCES memberships (tenant_id, operator_id) ON DELETE CASCADE
      )`);
    // An operator's leases, and the reconciler's walk of the recently seen ones.
    await queryRunner.query(`CREATE INDEX operator_socket_leases_operator_idx ON operator_socket_leases (tenant_id, operator_id, seen_at)`);
    await queryRunner.query(`CREATE INDEX operator_socket_leases_seen_idx ON operator_socket_leases (seen_at)`);
    // The reconciler's other candidates: operators whose status in effect is not offline.
    await queryRunner.query(`CREATE INDEX operator_presence_present_idx ON operator_presence (tenant_id, operator_id) WHERE status <> 'offline'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX operator_presence_present_idx`);
    await queryRunner.query(`DROP TABLE operator_socket_leases`);
  }
}
