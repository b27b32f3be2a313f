import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Conversations in motion (docs/conversations.md): inboxes bound to the
 * channel plugin connection that posts to them, contacts found by their
 * handle on a channel, messages that carry the channel's own id (unique per
 * inbox, so a redelivered post creates nothing) and an outbound delivery
 * status, and the durable outbox of queued-session notification fan-outs.
 *
 * Every column added to an existing table is nullable with no default, so
 * the ALTERs change the catalog only and rewrite no row of a large
 * `messages`. `inboxes.plugin_connection_id` has no foreign key:
 * `plugin_connections` belongs to core-tenants, whose retention may purge a
 * removed connection's row; an inbox of a removed connection just receives
 * nothing more (no credential of that connection authenticates).
 */
export class ConversationsInMotion1764900000000 implements MigrationInterface {
  name = 'ConversationsInMotion1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE inboxes ADD COLUMN plugin_connection_id uuid`);
    // Removal is a mark: sessions (closed ones included) keep naming their inbox.
    await queryRunner.query(`ALTER TABLE inboxes ADD COLUMN removed_at timestamptz`);
    await queryRunner.query(`CREATE INDEX inboxes_live_connection_idx ON inboxes (tenant_id, plugin_connection_id, created_at, id) WHERE removed_at IS NULL`);

    await queryRunner.query(`
      CREATE TABLE contact_handles (
        tenant_id uuid NOT NULL,
        channel text NOT NULL,
        handle text NOT NULL,
        contact_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT contact_handles_pkey PRIMARY KEY (tenant_id, channel, handle),
        CONSTRAINT contact_handles_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
        CONSTRAINT contact_handles_contact_id_fkey FOREIGN KEY (contact_id) REFERENCES contacts (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE INDEX contact_handles_contact_id_idx ON contact_handles (contact_id)`);

    await queryRunner.query(`ALTER TABLE messages ADD COLUMN inbox_id uuid`);
    await queryRunner.query(`ALTER TABLE messages ADD COLUMN channel_message_id text`);
    await queryRunner.query(`ALTER TABLE messages ADD COLUMN delivery_status text`);
    await queryRunner.query(`ALTER TABLE messages ADD COLUMN operator_id uuid`);
    await queryRunner.query(
      `ALTER TABLE messages ADD CONSTRAINT messages_delivery_status_check CHECK (delivery_status IN ('pending', 'sent', 'delivered', 'read', 'failed'))`,
    );
    await queryRunner.query(
      `ALTER TABLE messages ADD CONSTRAINT messages_operator_id_fkey FOREIGN KEY (operator_id) REFERENCES operators (id) ON DELETE SET NULL`,
    );
    // One message per channel message id on an inbox: two concurrent posts of one id insert one row (ON CONFLICT).
    await queryRunner.query(
      `CREATE UNIQUE INDEX messages_channel_message_key ON messages (tenant_id, inbox_id, channel_message_id) WHERE channel_message_id IS NOT NULL`,
    );

    // A contact's open session on an inbox, found by each inbound message.
    await queryRunner.query(`CREATE INDEX sessions_open_contact_inbox_idx ON sessions (tenant_id, inbox_id, contact_id) WHERE closed_at IS NULL`);

    // The retention sweep's oldest closed sessions (MESSAGE_RETENTION_DAYS).
    await queryRunner.query(`CREATE INDEX sessions_closed_at_idx ON sessions (closed_at) WHERE closed_at IS NOT NULL`);

    // An operator's unread notification of a session: found by a read (mark read), a fan-out (one per session while unread) and a clear.
    await queryRunner.query(
      `CREATE INDEX notifications_session_operator_unread_idx ON notifications (session_id, operator_id) WHERE read_at IS NULL AND session_id IS NOT NULL`,
    );

    // The fan-outs still to do: one row per inbound message of a queued
    // session (kind notify), or per assignment or close (kind clear),
    // written in the change's transaction and finished by a background loop.
    await queryRunner.query(`
      CREATE TABLE notification_fanouts (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL,
        session_id uuid NOT NULL,
        kind text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT notification_fanouts_pkey PRIMARY KEY (id),
        CONSTRAINT notification_fanouts_kind_check CHECK (kind IN ('notify', 'clear')),
        CONSTRAINT notification_fanouts_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
        CONSTRAINT notification_fanouts_session_id_fkey FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE INDEX notification_fanouts_due_idx ON notification_fanouts (created_at, id)`);
    await queryRunner.query(`CREATE INDEX notification_fanouts_session_id_idx ON notification_fanouts (session_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE notification_fanouts`);
    await queryRunner.query(`DROP INDEX notifications_session_operator_unread_idx`);
    await queryRunner.query(`DROP INDEX sessions_closed_at_idx`);
    await queryRunner.query(`DROP INDEX sessions_open_contact_inbox_idx`);
    await queryRunner.query(`DROP INDEX messages_channel_message_key`);
    await queryRunner.query(`ALTER TABLE messages DROP CONSTRAINT messages_operator_id_fkey, DROP CONSTRAINT messages_delivery_status_check`);
    await queryRunner.query(`ALTER TABLE messages DROP COLUMN operator_id, DROP COLUMN delivery_status, DROP COLUMN channel_message_id, DROP COLUMN inbox_id`);
    await queryRunner.query(`DROP TABLE contact_handles`);
    await queryRunner.query(`DROP INDEX inboxes_live_connection_idx`);
    await queryRunner.query(`ALTER TABLE inboxes DROP COLUMN removed_at, DROP COLUMN plugin_connection_id`);
  }
}
