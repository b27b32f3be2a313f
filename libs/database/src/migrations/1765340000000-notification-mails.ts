import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Notification mails (docs/notifications.md): each operator's choice of the
 * events they are mailed about, the events waiting to be mailed, and one
 * batch per operator that gathers them into at most one mail per interval.
 *
 * An item is written in the transaction of the assignment or inbound message
 * that caused it, so no event is lost between the change and the mail. The
 * batch is the worker's unit of work: opened by its first item (`opened_at`),
 * due once NOTIFICATION_MAIL_INTERVAL_SECONDS have passed since, claimed with
 * a lease (`leased_until`) under FOR UPDATE SKIP LOCKED, due again at
 * `retry_at` after a growing delay (`failures`) when SMTP fails.
 * Items and batches hang on the tenant and the operator, not on the
 * membership: an event for an operator who just left the tenant must not
 * fail the message or assignment that caused it; the worker drops what a
 * non-member has waiting.
 */
export class NotificationMails1765340000000 implements MigrationInterface {
  name = 'NotificationMails1765340000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // No row: every kind on (the defaults).
    await queryRunner.query(`
      CREATE TABLE notification_mail_preferences (
        tenant_id uuid NOT NULL,
        operator_id uuid NOT NULL,
        assigned boolean NOT NULL DEFAULT true,
        contact_wrote boolean NOT NULL DEFAULT true,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT notification_mail_preferences_pkey PRIMARY KEY (tenant_id, operator_id),
        CONSTRAINT notification_mail_preferences_membership_fkey FOREIGN KEY (tenant_id, operator_id) REFERENCES memberships (tenant_id, operator_id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`
      CREATE TABLE notification_mail_items (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL,
        operator_id uuid NOT NULL,
        kind text NOT NULL,
        session_id uuid NOT NULL,
        message_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT notification_mail_items_pkey PRIMARY KEY (id),
        CONSTRAINT notification_mail_items_kind_check CHECK (kind IN ('assigned', 'contactWrote')),
        CONSTRAINT notification_mail_items_message_check CHECK ((kind = 'contactWrote') = (message_id IS NOT NULL)),
        CONSTRAINT notification_mail_items_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
        CONSTRAINT notification_mail_items_operator_id_fkey FOREIGN KEY (operator_id) REFERENCES operators (id) ON DELETE CASCADE,
        CONSTRAINT notification_mail_items_session_id_fkey FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE,
        CONSTRAINT notification_mail_items_message_id_fkey FOREIGN KEY (message_id) REFERENCES messages (id) ON DELETE CASCADE
      )`);
    // An operator's items in order (the mail's list); the session and message ones serve the cascades.
    await queryRunner.query(`CREATE INDEX notification_mail_items_operator_idx ON notification_mail_items (tenant_id, operator_id, created_at, id)`);
    await queryRunner.query(`CREATE INDEX notification_mail_items_session_id_idx ON notification_mail_items (session_id)`);
    await queryRunner.query(`CREATE INDEX notification_mail_items_message_id_idx ON notification_mail_items (message_id) WHERE message_id IS NOT NULL`);
    await queryRunner.query(`
      CREATE TABLE notification_mail_batches (
        tenant_id uuid NOT NULL,
        operator_id uuid NOT NULL,
        opened_at timestamptz NOT NULL DEFAULT now(),
        retry_at timestamptz,
        leased_until timestamptz,
        failures integer NOT NULL DEFAULT 0,
        CONSTRAINT notification_mail_batches_pkey PRIMARY KEY (tenant_id, operator_id),
        CONSTRAINT notification_mail_batches_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
        CONSTRAINT notification_mail_batches_operator_id_fkey FOREIGN KEY (operator_id) REFERENCES operators (id) ON DELETE CASCADE
      )`);
    // The worker's claim, oldest first. The table holds one row per operator with something waiting, so the
    // claim's filter (which adds the interval setting of the moment) runs over a small table.
    await queryRunner.query(`CREATE INDEX notification_mail_batches_opened_idx ON notification_mail_batches (opened_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE notification_mail_batches, notification_mail_items, notification_mail_preferences`);
  }
}
