import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox's consumers each get their own claim state (docs/webhooks.md,
 * The outbox): one `outbox_pending` row per consumer (`webhooks`, the
 * dispatcher; `realtime`, the gateway's relay) and event, deleted when that
 * consumer is done with it. A consumer claims its own rows under its own
 * advisory lock and never locks `webhook_events`, so neither can hide or
 * reorder the other's events, as the two marks on one row did
 * (`dispatched_at`, `streamed_at`, both claimed FOR UPDATE SKIP LOCKED).
 *
 * The rows are written by a statement trigger on `webhook_events`, inside
 * the append's own statement: every append, whatever code made it (a replica
 * not yet upgraded included), has its pending rows, and a consumer is added
 * by a migration that adds it here. What is in flight at the upgrade
 * carries over: every event not yet dispatched is pending for `webhooks`,
 * every event not yet streamed for `realtime`. The trigger comes first, so
 * an event appended meanwhile has its rows either way (ON CONFLICT).
 *
 * `outbox_losses` is where the retention sweep records, per consumer and
 * tenant, events it deleted before that consumer took them (the consumer
 * was down past the window): the relay takes them and makes the tenant's
 * sockets resync (docs/realtime.md).
 *
 * `dispatched_at` and `streamed_at` stay, unwritten, while replicas of the
 * previous release may still run; their partial indexes go, and the sweep
 * deletes by `occurred_at`.
 */
export class OutboxConsumers1765100000000 implements MigrationInterface {
  name = 'OutboxConsumers1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE outbox_pending (
        consumer text NOT NULL,
        event_id uuid NOT NULL,
        occurred_at timestamptz NOT NULL,
        CONSTRAINT outbox_pending_pkey PRIMARY KEY (consumer, occurred_at, event_id),
        CONSTRAINT outbox_pending_consumer_check CHECK (consumer IN ('webhooks', 'realtime')),
        CONSTRAINT outbox_pending_event_id_fkey FOREIGN KEY (event_id) REFERENCES webhook_events (id) ON DELETE CASCADE
      )`);
    // The cascade from a deleted event, and a consumer's delete of what it consumed.
    await queryRunner.query(`CREATE INDEX outbox_pending_event_idx ON outbox_pending (event_id)`);
    await queryRunner.query(`
      CREATE TABLE outbox_losses (
        consumer text NOT NULL,
        tenant_id uuid NOT NULL,
        events bigint NOT NULL,
        first_lost_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT outbox_losses_pkey PRIMARY KEY (consumer, tenant_id)
      )`);
    await queryRunner.query(`
      CREATE FUNCTION outbox_pending_for_consumers() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO outbox_pending (consumer, event_id, occurred_at)
        SELECT c.consumer, a.id, a.occurred_at FROM appended a CROSS JOIN (VALUES ('webhooks'), ('realtime')) AS c(consumer);
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER webhook_events_pending AFTER INSERT ON webhook_events
        REFERENCING NEW TABLE AS appended FOR EACH STATEMENT EXECUTE FUNCTION outbox_pending_for_consumers()`);
    await queryRunner.query(`
      INSERT INTO outbox_pending (consumer, event_id, occurred_at)
      SELECT 'webhooks', id, occurred_at FROM webhook_events WHERE dispatched_at IS NULL
      UNION ALL
      SELECT 'realtime', id, occurred_at FROM webhook_events WHERE streamed_at IS NULL
      ON CONFLICT DO NOTHING`);
    await queryRunner.query(`DROP INDEX webhook_events_undispatched_idx`);
    await queryRunner.query(`DROP INDEX webhook_events_unstreamed_idx`);
    await queryRunner.query(`DROP INDEX webhook_events_dispatched_at_idx`);
    // The retention sweep deletes the oldest events first.
    await queryRunner.query(`CREATE INDEX webhook_events_occurred_at_idx ON webhook_events (occurred_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // What a consumer had done is its mark again; what it had not stays unmarked.
    await queryRunner.query(`UPDATE webhook_events e SET dispatched_at = COALESCE(e.dispatched_at, clock_timestamp())
                              WHERE NOT EXISTS (SELECT 1 FROM outbox_pending p WHERE p.event_id = e.id AND p.consumer = 'webhooks')`);
    await queryRunner.query(`UPDATE webhook_events e SET streamed_at = COALESCE(e.streamed_at, clock_timestamp())
                              WHERE NOT EXISTS (SELECT 1 FROM outbox_pending p WHERE p.event_id = e.id AND p.consumer = 'realtime')`);
    await queryRunner.query(`DROP INDEX webhook_events_occurred_at_idx`);
    await queryRunner.query(`CREATE INDEX webhook_events_dispatched_at_idx ON webhook_events (dispatched_at) WHERE dispatched_at IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX webhook_events_unstreamed_idx ON webhook_events (occurred_at, id) WHERE streamed_at IS NULL`);
    await queryRunner.query(`CREATE INDEX webhook_events_undispatched_idx ON webhook_events (occurred_at, id) WHERE dispatched_at IS NULL`);
    await queryRunner.query(`DROP TRIGGER webhook_events_pending ON webhook_events`);
    await queryRunner.query(`DROP FUNCTION outbox_pending_for_consumers()`);
    await queryRunner.query(`DROP TABLE outbox_losses`);
    await queryRunner.query(`DROP TABLE outbox_pending`);
  }
}
