import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Automatic assignment of queued sessions (docs/conversations.md#routing):
 * each inbox's policy, each operator's last assignment (round robin's turn),
 * and the tenants a routing pass is due for. A presence change to online
 * records a request by trigger, so whatever writes presence wakes routing;
 * a change to offline records one due when the tenant's shortest requeue
 * limit has passed.
 */
export class InboxRouting1765320000000 implements MigrationInterface {
  name = 'InboxRouting1765320000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE inbox_routing_policies (
        inbox_id uuid NOT NULL,
        tenant_id uuid NOT NULL,
        policy text NOT NULL,
        capacity integer NOT NULL,
        operator_ids uuid[] NOT NULL DEFAULT '{}',
        requeue_offline_after_seconds integer,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT inbox_routing_policies_pkey PRIMARY KEY (inbox_id),
        CONSTRAINT inbox_routing_policies_policy_check CHECK (policy IN ('manual', 'least-loaded', 'round-robin')),
        CONSTRAINT inbox_routing_policies_capacity_check CHECK (capacity BETWEEN 1 AND 1000),
        CONSTRAINT inbox_routing_policies_requeue_check CHECK (requeue_offline_after_seconds BETWEEN 1 AND 604800),
        CONSTRAINT inbox_routing_policies_inbox_id_fkey FOREIGN KEY (inbox_id) REFERENCES inboxes (id) ON DELETE CASCADE,
        CONSTRAINT inbox_routing_policies_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE
      )`);
    // A pass reads the tenant's routed inboxes; the sweep, every tenant that has one.
    await queryRunner.query(`CREATE INDEX inbox_routing_policies_routed_idx ON inbox_routing_policies (tenant_id) WHERE policy <> 'manual'`);

    await queryRunner.query(`
      CREATE TABLE routing_operator_turns (
        tenant_id uuid NOT NULL,
        operator_id uuid NOT NULL,
        last_assigned_at timestamptz NOT NULL,
        CONSTRAINT routing_operator_turns_pkey PRIMARY KEY (tenant_id, operator_id),
        CONSTRAINT routing_operator_turns_membership_fkey FOREIGN KEY (tenant_id, operator_id) REFERENCES memberships (tenant_id, operator_id) ON DELETE CASCADE
      )`);

    // One row per tenant a pass is due for; generation tells a pass whether a request came while it ran.
    await queryRunner.query(`
      CREATE TABLE routing_requests (
        tenant_id uuid NOT NULL,
        generation bigint NOT NULL DEFAULT 1,
        due_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT routing_requests_pkey PRIMARY KEY (tenant_id),
        CONSTRAINT routing_requests_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE INDEX routing_requests_due_idx ON routing_requests (due_at)`);

    // The pass: a routed inbox's queued sessions, oldest first; an operator's open sessions (their load).
    await queryRunner.query(`CREATE INDEX sessions_queued_idx ON sessions (tenant_id, inbox_id, created_at, id) WHERE closed_at IS NULL AND operator_id IS NULL`);
    await queryRunner.query(`CREATE INDEX sessions_operator_open_idx ON sessions (tenant_id, operator_id) WHERE closed_at IS NULL AND operator_id IS NOT NULL`);

    await queryRunner.query(`
      CREATE FUNCTION routing_request_on_presence() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        delay integer;
      BEGIN
        IF NEW.status = 'online' THEN
          delay := 0;
        ELSE
          SELECT min(requeue_offline_after_seconds) INTO delay FROM inbox_routing_policies
           WHERE tenant_id = NEW.tenant_id AND policy <> 'manual';
        END IF;
        IF delay IS NOT NULL AND EXISTS (SELECT 1 FROM inbox_routing_policies WHERE tenant_id = NEW.tenant_id AND policy <> 'manual') THEN
          INSERT INTO routing_requests (tenant_id, due_at) VALUES (NEW.tenant_id, clock_timestamp() + make_interval(secs => delay))
          ON CONFLICT (tenant_id) DO UPDATE
             SET generation = routing_requests.generation + 1, due_at = LEAST(routing_requests.due_at, excluded.due_at);
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER operator_presence_routing AFTER INSERT OR UPDATE OF status ON operator_presence
      FOR EACH ROW WHEN (NEW.status IN ('online', 'offline')) EXECUTE FUNCTION routing_request_on_presence()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER operator_presence_routing ON operator_presence`);
    await queryRunner.query(`DROP FUNCTION routing_request_on_presence()`);
    await queryRunner.query(`DROP INDEX sessions_operator_open_idx`);
    await queryRunner.query(`DROP INDEX sessions_queued_idx`);
    await queryRunner.query(`DROP TABLE routing_requests`);
    await queryRunner.query(`DROP TABLE routing_operator_turns`);
    await queryRunner.query(`DROP TABLE inbox_routing_policies`);
  }
}
