import { MigrationInterface, QueryRunner } from 'typeorm';

/** Invitations of an address to join a tenant, accepted by signing up with their token. */
export class OperatorInvitations1764000000000 implements MigrationInterface {
  name = 'OperatorInvitations1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE operator_invitations (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL,
        email text NOT NULL,
        token_hash text NOT NULL,
        invited_by uuid,
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz,
        accepted_operator_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT operator_invitations_pkey PRIMARY KEY (id),
        CONSTRAINT operator_invitations_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
        CONSTRAINT operator_invitations_invited_by_fkey FOREIGN KEY (invited_by) REFERENCES operators (id) ON DELETE SET NULL,
        CONSTRAINT operator_invitations_accepted_operator_id_fkey FOREIGN KEY (accepted_operator_id) REFERENCES operators (id) ON DELETE SET NULL
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX operator_invitations_token_hash_key ON operator_invitations (token_hash)`);
    await queryRunner.query(`CREATE INDEX operator_invitations_tenant_id_email_idx ON operator_invitations (tenant_id, email)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE operator_invitations`);
  }
}
