import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency keys of the create operations (docs/idempotency.md): one row
 * per app, principal, tenant and key, holding the request's fingerprint, the
 * claim of the execution in progress (with its lease) and then the answer to
 * replay. Shared by the apps; each writes only the rows of its own `app`.
 * `tenant_id` is text so that an operation on no tenant can use ''.
 */
export class IdempotencyKeys1764500000000 implements MigrationInterface {
  name = 'IdempotencyKeys1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE idempotency_keys (
         app text NOT NULL,
         principal text NOT NULL,
         tenant_id text NOT NULL,
         key text NOT NULL,
         fingerprint text NOT NULL,
         state text NOT NULL CHECK (state IN ('executing', 'completed')),
         lease_token uuid,
         lease_expires_at timestamptz,
         response_status integer,
         response_headers jsonb,
         response_body text,
         created_at timestamptz NOT NULL,
         expires_at timestamptz NOT NULL,
         PRIMARY KEY (app, principal, tenant_id, key),
         CONSTRAINT idempotency_keys_lease_check
           CHECK ((state = 'executing') = (lease_token IS NOT NULL AND lease_expires_at IS NOT NULL)),
         CONSTRAINT idempotency_keys_answer_check
           CHECK ((state = 'completed') = (response_status IS NOT NULL AND response_headers IS NOT NULL AND response_body IS NOT NULL))
       )`,
    );
    await queryRunner.query(`CREATE INDEX idempotency_keys_expiry ON idempotency_keys (app, expires_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE idempotency_keys`);
  }
}
