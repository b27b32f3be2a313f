import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbound webhooks (docs/webhooks.md).
 *
 * - `webhook_events` is the outbox: every app appends the events of a change
 *   in the change's transaction (libs/webhooks), so an event exists exactly
 *   when its change committed. services-api's dispatcher fans each event out
 *   to the tenant's subscribed endpoints and marks it dispatched; the
 *   retention sweep deletes dispatched events. No foreign key to tenants: an
 *   event may describe the tenant's last change.
 * - `webhook_endpoints`, `webhook_deliveries` and `webhook_delivery_attempts`
 *   belong to services-api. A delivery is one event for one endpoint (unique,
 *   so a fan-out repeated after a crash adds nothing); its attempts are the
 *   delivery log. Deliveries keep their own copy of the payload, so they
 *   outlive the swept event.
 * - `occurred_at` is the clock at the insert (not the transaction's start),
 *   so two events of one transaction keep their order; `id` breaks ties.
 */
export class Webhooks1764800000000 implements MigrationInterface {
  name = 'Webhooks1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE webhook_events (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL,
        type text NOT NULL,
        version integer NOT NULL,
        ordering_key text,
        data jsonb NOT NULL,
        occurred_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        emitted_by text NOT NULL,
        headers jsonb,
        dispatched_at timestamptz,
        CONSTRAINT webhook_events_pkey PRIMARY KEY (id)
      )`);
    // The dispatcher claims the oldest undispatched events; the sweep deletes the oldest dispatched ones.
    await queryRunner.query(`CREATE INDEX webhook_events_undispatched_idx ON webhook_events (occurred_at, id) WHERE dispatched_at IS NULL`);
    await queryRunner.query(`CREATE INDEX webhook_events_dispatched_at_idx ON webhook_events (dispatched_at) WHERE dispatched_at IS NOT NULL`);

    await queryRunner.query(`
      CREATE TABLE webhook_endpoints (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL,
        url text NOT NULL,
        description text NOT NULL DEFAULT '',
        event_types text[] NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        secret text NOT NULL,
        previous_secret text,
        previous_secret_expires_at timestamptz,
        failing_since timestamptz,
        disabled_at timestamptz,
        disabled_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT webhook_endpoints_pkey PRIMARY KEY (id),
        CONSTRAINT webhook_endpoints_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE INDEX webhook_endpoints_tenant_order_idx ON webhook_endpoints (tenant_id, created_at, id)`);

    await queryRunner.query(`
      CREATE TABLE webhook_deliveries (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL,
        endpoint_id uuid NOT NULL,
        event_id uuid NOT NULL,
        event_type text NOT NULL,
        ordering_key text,
        payload jsonb NOT NULL,
        occurred_at timestamptz NOT NULL,
        status text NOT NULL DEFAULT 'pending',
        attempt_count integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        last_attempt_at timestamptz,
        last_status_code integer,
        last_error text,
        headers jsonb,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        completed_at timestamptz,
        CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (id),
        CONSTRAINT webhook_deliveries_endpoint_event_key UNIQUE (endpoint_id, event_id),
        CONSTRAINT webhook_deliveries_endpoint_id_fkey FOREIGN KEY (endpoint_id) REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        CONSTRAINT webhook_deliveries_status_check CHECK (status IN ('pending', 'succeeded', 'failed'))
      )`);
    // The delivery log of an endpoint, newest first; the due claims; the retention sweep.
    await queryRunner.query(`CREATE INDEX webhook_deliveries_endpoint_order_idx ON webhook_deliveries (endpoint_id, created_at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`);
    await queryRunner.query(`CREATE INDEX webhook_deliveries_pending_order_idx ON webhook_deliveries (endpoint_id, occurred_at, event_id) WHERE status = 'pending'`);
    await queryRunner.query(`CREATE INDEX webhook_deliveries_created_at_idx ON webhook_deliveries (created_at)`);

    await queryRunner.query(`
      CREATE TABLE webhook_delivery_attempts (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        delivery_id uuid NOT NULL,
        attempted_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        duration_ms integer NOT NULL,
        status_code integer,
        error text,
        succeeded boolean NOT NULL,
        CONSTRAINT webhook_delivery_attempts_pkey PRIMARY KEY (id),
        CONSTRAINT webhook_delivery_attempts_delivery_id_fkey FOREIGN KEY (delivery_id) REFERENCES webhook_deliveries (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE INDEX webhook_delivery_attempts_delivery_idx ON webhook_delivery_attempts (delivery_id, attempted_at, id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE webhook_delivery_attempts`);
    await queryRunner.query(`DROP TABLE webhook_deliveries`);
    await queryRunner.query(`DROP TABLE webhook_endpoints`);
    await queryRunner.query(`DROP TABLE webhook_events`);
  }
}
