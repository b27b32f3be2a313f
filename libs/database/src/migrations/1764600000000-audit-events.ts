import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log of administrative actions per tenant (docs/audit-log.md).
 *
 * - Rows are written in the transaction of the action they describe, by the
 *   app that performs it, so no action goes unrecorded and no row describes
 *   an action that was rolled back.
 * - Append-only: a trigger refuses every UPDATE. Rows leave only by the
 *   retention sweep (DELETE of rows older than AUDIT_RETENTION_DAYS).
 * - `occurred_at` is the clock at the insert (not the transaction's start),
 *   so two events of one transaction keep their order; `id` breaks ties.
 * - No foreign key to tenants: the record outlives what it describes.
 */
export class AuditEvents1764600000000 implements MigrationInterface {
  name = 'AuditEvents1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE audit_events (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL,
        occurred_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        action text NOT NULL,
        actor_kind text NOT NULL,
        actor_id uuid NOT NULL,
        request_id text,
        target_kind text NOT NULL,
        target_id text NOT NULL,
        summary jsonb NOT NULL DEFAULT '{}'::jsonb,
        recorded_by text NOT NULL,
        CONSTRAINT audit_events_pkey PRIMARY KEY (id),
        CONSTRAINT audit_events_actor_kind_check CHECK (actor_kind IN ('operator', 'plugin', 'pluginConnection'))
      )`);
    // Newest first, whole log or filtered by action or actor: each list is one index range.
    await queryRunner.query(`CREATE INDEX audit_events_tenant_order_idx ON audit_events (tenant_id, occurred_at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX audit_events_tenant_action_idx ON audit_events (tenant_id, action, occurred_at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX audit_events_tenant_actor_idx ON audit_events (tenant_id, actor_id, occurred_at DESC, id DESC)`);
    // The retention sweep deletes the oldest rows of every tenant.
    await queryRunner.query(`CREATE INDEX audit_events_occurred_at_idx ON audit_events (occurred_at)`);
    await queryRunner.query(`
      CREATE FUNCTION audit_events_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit_events is append-only';
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER audit_events_append_only BEFORE UPDATE ON audit_events
        FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_update()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE audit_events`);
    await queryRunner.query(`DROP FUNCTION audit_events_refuse_update()`);
  }
}
