import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Operator shortcuts, contacts, inboxes, sessions, messages, session summaries
 * and notifications, with the indexes behind operations 7, 11 and 14
 * and the counters that make their totals exact without counting rows
 * (docs/sessions-and-shortcuts.md).
 *
 * Counters are kept by statement-level triggers with transition tables: they
 * change in the same transaction as the rows, whoever writes them, and a bulk
 * INSERT ... SELECT pays one grouped upsert, not one per row. A counter row
 * exists only while its count is above zero. Counters carry no CHECK (>= 0):
 * PostgreSQL checks the proposed row of INSERT ... ON CONFLICT before it
 * merges it, and a decrement is proposed as a negative row.
 */
export class ShortcutsSessionsNotifications1763900000000 implements MigrationInterface {
  name = 'ShortcutsSessionsNotifications1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    // Order of shortcut bangs: Unicode root collation at strength 1, so case and
    // accents do not change the order ("abaco" = "Ábaco"); ties go to shortcutID.
    await queryRunner.query(
      `CREATE COLLATION IF NOT EXISTS shortcut_bang_order (provider = icu, locale = 'und-u-ks-level1', deterministic = false)`,
    );

    // The rows a statement changed, each with +1 (new version) or -1 (old version),
    // read from the transition tables of the statement-level counter triggers.
    await queryRunner.query(`
      CREATE FUNCTION changed_rows_sql(operation text) RETURNS text
      LANGUAGE sql IMMUTABLE AS $$
        SELECT CASE operation
          WHEN 'INSERT' THEN 'SELECT *, 1 AS delta FROM new_rows'
          WHEN 'DELETE' THEN 'SELECT *, -1 AS delta FROM old_rows'
          ELSE 'SELECT *, 1 AS delta FROM new_rows UNION ALL SELECT *, -1 AS delta FROM old_rows'
        END
      $$`);
    await this.createShortcuts(queryRunner);
    await this.createContactsAndInboxes(queryRunner);
    await this.createSessionsAndMessages(queryRunner);
    await this.createNotifications(queryRunner);
  }

  private async createShortcuts(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE shortcuts (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL,
        organization_id uuid NOT NULL,
        operator_id uuid NOT NULL,
        scope text NOT NULL,
        bang text NOT NULL,
        preview text NOT NULL DEFAULT '',
        contents jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT shortcuts_pkey PRIMARY KEY (id),
        CONSTRAINT shortcuts_scope_check CHECK (scope IN ('tenant-based', 'user-based')),
        CONSTRAINT shortcuts_contents_check CHECK (jsonb_typeof(contents) = 'array'),
        CONSTRAINT shortcuts_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
        CONSTRAINT shortcuts_operator_id_fkey FOREIGN KEY (operator_id) REFERENCES operators (id) ON DELETE RESTRICT
      )`);
    // Operation 7 reads two ordered ranges: the operator's personal shortcuts, then the company-wide ones.
    await queryRunner.query(
      `CREATE INDEX shortcuts_personal_order_idx ON shortcuts (tenant_id, operator_id, bang COLLATE shortcut_bang_order, id) WHERE scope = 'user-based'`,
    );
    await queryRunner.query(
      `CREATE INDEX shortcuts_company_order_idx ON shortcuts (tenant_id, bang COLLATE shortcut_bang_order, id) WHERE scope = 'tenant-based'`,
    );
    await queryRunner.query(`CREATE INDEX shortcuts_operator_id_idx ON shortcuts (operator_id)`);
    // Case-insensitive substring search (ILIKE) on the bang and the preview.
    await queryRunner.query(`CREATE INDEX shortcuts_bang_trgm_idx ON shortcuts USING gin (bang gin_trgm_ops)`);
    await queryRunner.query(`CREATE INDEX shortcuts_preview_trgm_idx ON shortcuts USING gin (preview gin_trgm_ops)`);

    // owner_id: the operator for personal shortcuts, the nil UUID for the tenant's company-wide count.
    await queryRunner.query(`
      CREATE TABLE shortcut_counts (
        tenant_id uuid NOT NULL,
        scope text NOT NULL,
        owner_id uuid NOT NULL,
        total bigint NOT NULL,
        CONSTRAINT shortcut_counts_pkey PRIMARY KEY (tenant_id, scope, owner_id)
      )`);
    await queryRunner.query(`
      CREATE FUNCTION shortcut_counts_change(tenant_ids uuid[], scopes text[], owner_ids uuid[], deltas bigint[]) RETURNS void
      LANGUAGE sql AS $$
        INSERT INTO shortcut_counts AS c (tenant_id, scope, owner_id, total)
        SELECT * FROM unnest(tenant_ids, scopes, owner_ids, deltas) ORDER BY 1, 2, 3
        ON CONFLICT (tenant_id, scope, owner_id) DO UPDATE SET total = c.total + excluded.total;
        DELETE FROM shortcut_counts c USING unnest(tenant_ids, scopes, owner_ids) k (tenant_id, scope, owner_id)
         WHERE c.tenant_id = k.tenant_id AND c.scope = k.scope AND c.owner_id = k.owner_id AND c.total = 0;
      $$`);
    await queryRunner.query(`
      CREATE FUNCTION shortcut_counts_track() RETURNS trigger
      LANGUAGE plpgsql AS $$
      DECLARE
        tenant_ids uuid[]; scopes text[]; owner_ids uuid[]; deltas bigint[];
      BEGIN
        IF TG_OP = 'TRUNCATE' THEN
          DELETE FROM shortcut_counts;
          RETURN NULL;
        END IF;
        EXECUTE format($sql$
          WITH changed AS (%s), grouped AS (
            SELECT tenant_id, scope,
                   CASE WHEN scope = 'user-based' THEN operator_id ELSE '00000000-0000-0000-0000-000000000000'::uuid END AS owner_id,
                   sum(delta)::bigint AS delta
              FROM changed GROUP BY 1, 2, 3 HAVING sum(delta) <> 0
          )
          SELECT array_agg(tenant_id), array_agg(scope), array_agg(owner_id), array_agg(delta) FROM grouped
        $sql$, changed_rows_sql(TG_OP)) INTO tenant_ids, scopes, owner_ids, deltas;
        IF tenant_ids IS NOT NULL THEN
          PERFORM shortcut_counts_change(tenant_ids, scopes, owner_ids, deltas);
        END IF;
        RETURN NULL;
      END $$`);
    await this.createCounterTriggers(queryRunner, 'shortcuts', 'shortcut_counts_track');
  }

  private async createContactsAndInboxes(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE contacts (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT contacts_pkey PRIMARY KEY (id),
        CONSTRAINT contacts_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE INDEX contacts_tenant_id_idx ON contacts (tenant_id)`);
    await queryRunner.query(`
      CREATE TABLE inboxes (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL,
        name text NOT NULL,
        channel text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT inboxes_pkey PRIMARY KEY (id),
        CONSTRAINT inboxes_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE INDEX inboxes_tenant_id_idx ON inboxes (tenant_id)`);
  }

  private async createSessionsAndMessages(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE sessions (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL,
        contact_id uuid NOT NULL,
        inbox_id uuid NOT NULL,
        operator_id uuid,
        operator_participants_ids uuid[] NOT NULL DEFAULT '{}',
        channel text NOT NULL,
        type text NOT NULL,
        active boolean NOT NULL DEFAULT true,
        listed boolean NOT NULL DEFAULT true,
        last_message_id uuid,
        last_activity_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        closed_at timestamptz,
        manual_at timestamptz,
        queued_at timestamptz,
        CONSTRAINT sessions_pkey PRIMARY KEY (id),
        CONSTRAINT sessions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
        CONSTRAINT sessions_contact_id_fkey FOREIGN KEY (contact_id) REFERENCES contacts (id) ON DELETE CASCADE,
        CONSTRAINT sessions_inbox_id_fkey FOREIGN KEY (inbox_id) REFERENCES inboxes (id) ON DELETE RESTRICT,
        CONSTRAINT sessions_operator_id_fkey FOREIGN KEY (operator_id) REFERENCES operators (id) ON DELETE SET NULL
      )`);
    // Operation 11: a contact's sessions, most recently active first; the INCLUDE
    // columns let the operator's visibility rule be checked without the heap.
    await queryRunner.query(`
      CREATE INDEX sessions_contact_activity_idx ON sessions (tenant_id, contact_id, last_activity_at DESC, id DESC)
        INCLUDE (listed, operator_id, operator_participants_ids)`);
    // The unlisted sessions of a contact an operator may still see (their own or joined).
    await queryRunner.query(`
      CREATE INDEX sessions_contact_unlisted_idx ON sessions (tenant_id, contact_id)
        INCLUDE (operator_id, operator_participants_ids) WHERE NOT listed`);
    await queryRunner.query(`CREATE INDEX sessions_inbox_id_idx ON sessions (inbox_id)`);
    await queryRunner.query(`CREATE INDEX sessions_operator_id_idx ON sessions (operator_id) WHERE operator_id IS NOT NULL`);

    await queryRunner.query(`
      CREATE TABLE messages (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL,
        session_id uuid NOT NULL,
        direction text NOT NULL,
        key text NOT NULL,
        status integer NOT NULL DEFAULT 0,
        value jsonb NOT NULL DEFAULT 'null',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT messages_pkey PRIMARY KEY (id),
        CONSTRAINT messages_direction_check CHECK (direction IN ('inbound', 'outbound')),
        CONSTRAINT messages_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
        CONSTRAINT messages_session_id_fkey FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE
      )`);
    // A session's messages in order (conversation view, processing traces).
    await queryRunner.query(`CREATE INDEX messages_session_order_idx ON messages (session_id, created_at, id)`);
    // Deferrable, so that a bulk import can write sessions that name their last
    // message before the messages themselves, in one transaction.
    await queryRunner.query(`
      ALTER TABLE sessions ADD CONSTRAINT sessions_last_message_id_fkey
        FOREIGN KEY (last_message_id) REFERENCES messages (id) ON DELETE SET NULL DEFERRABLE INITIALLY IMMEDIATE`);

    // A new message becomes its session's last message when it is the latest
    // (by time, then id), and moves the session's last activity with it.
    await queryRunner.query(`
      CREATE FUNCTION sessions_follow_last_message() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE sessions s
           SET last_message_id = m.id, last_activity_at = m.created_at
          FROM (SELECT DISTINCT ON (session_id) session_id, id, created_at
                  FROM new_rows ORDER BY session_id, created_at DESC, id DESC) m
         WHERE s.id = m.session_id
           AND (s.last_message_id IS NULL OR (m.created_at, m.id) > (s.last_activity_at, s.last_message_id));
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER messages_last_message_trigger AFTER INSERT ON messages
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sessions_follow_last_message()`);

    await queryRunner.query(`
      CREATE TABLE session_summaries (
        session_id uuid NOT NULL,
        tenant_id uuid NOT NULL,
        summary jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT session_summaries_pkey PRIMARY KEY (session_id),
        CONSTRAINT session_summaries_summary_check CHECK (jsonb_typeof(summary) = 'object'),
        CONSTRAINT session_summaries_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
        CONSTRAINT session_summaries_session_id_fkey FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE
      )`);

    await queryRunner.query(`
      CREATE TABLE contact_session_counts (
        tenant_id uuid NOT NULL,
        contact_id uuid NOT NULL,
        total bigint NOT NULL,
        listed bigint NOT NULL,
        CONSTRAINT contact_session_counts_pkey PRIMARY KEY (tenant_id, contact_id)
      )`);
    await queryRunner.query(`
      CREATE FUNCTION contact_session_counts_track() RETURNS trigger
      LANGUAGE plpgsql AS $$
      DECLARE
        tenant_ids uuid[]; contact_ids uuid[]; totals bigint[]; listeds bigint[];
      BEGIN
        IF TG_OP = 'TRUNCATE' THEN
          DELETE FROM contact_session_counts;
          RETURN NULL;
        END IF;
        EXECUTE format($sql$
          WITH changed AS (%s), grouped AS (
            SELECT tenant_id, contact_id, sum(delta)::bigint AS total, coalesce(sum(delta) FILTER (WHERE listed), 0)::bigint AS listed
              FROM changed GROUP BY 1, 2
            HAVING sum(delta) <> 0 OR coalesce(sum(delta) FILTER (WHERE listed), 0) <> 0
          )
          SELECT array_agg(tenant_id ORDER BY tenant_id, contact_id), array_agg(contact_id ORDER BY tenant_id, contact_id),
                 array_agg(total ORDER BY tenant_id, contact_id), array_agg(listed ORDER BY tenant_id, contact_id)
            FROM grouped
        $sql$, changed_rows_sql(TG_OP)) INTO tenant_ids, contact_ids, totals, listeds;
        IF tenant_ids IS NOT NULL THEN
          INSERT INTO contact_session_counts AS c (tenant_id, contact_id, total, listed)
          SELECT * FROM unnest(tenant_ids, contact_ids, totals, listeds)
          ON CONFLICT (tenant_id, contact_id) DO UPDATE SET total = c.total + excluded.total, listed = c.listed + excluded.listed;
          DELETE FROM contact_session_counts c USING unnest(tenant_ids, contact_ids) k (tenant_id, contact_id)
           WHERE c.tenant_id = k.tenant_id AND c.contact_id = k.contact_id AND c.total = 0;
        END IF;
        RETURN NULL;
      END $$`);
    await this.createCounterTriggers(queryRunner, 'sessions', 'contact_session_counts_track');
  }

  private async createNotifications(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE notifications (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL,
        operator_id uuid NOT NULL,
        category text NOT NULL,
        inbox_id uuid,
        session_id uuid,
        read_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT notifications_pkey PRIMARY KEY (id),
        CONSTRAINT notifications_category_check CHECK (category IN ('inbox', 'mention', 'assignment', 'system')),
        CONSTRAINT notifications_inbox_check CHECK ((category = 'inbox') = (inbox_id IS NOT NULL)),
        CONSTRAINT notifications_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
        CONSTRAINT notifications_operator_id_fkey FOREIGN KEY (operator_id) REFERENCES operators (id) ON DELETE CASCADE,
        CONSTRAINT notifications_inbox_id_fkey FOREIGN KEY (inbox_id) REFERENCES inboxes (id) ON DELETE CASCADE,
        CONSTRAINT notifications_session_id_fkey FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE
      )`);
    // An operator's unread notifications, newest first (the notification feed, and the recount in docs).
    await queryRunner.query(
      `CREATE INDEX notifications_operator_unread_idx ON notifications (tenant_id, operator_id, created_at DESC) WHERE read_at IS NULL`,
    );
    await queryRunner.query(`CREATE INDEX notifications_operator_id_idx ON notifications (operator_id)`);
    await queryRunner.query(`CREATE INDEX notifications_inbox_id_idx ON notifications (inbox_id) WHERE inbox_id IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX notifications_session_id_idx ON notifications (session_id) WHERE session_id IS NOT NULL`);

    // category_key: the inboxID for inbox notifications, else the category name.
    await queryRunner.query(`
      CREATE TABLE notification_unread_counts (
        tenant_id uuid NOT NULL,
        operator_id uuid NOT NULL,
        category_key text NOT NULL,
        unread bigint NOT NULL,
        CONSTRAINT notification_unread_counts_pkey PRIMARY KEY (tenant_id, operator_id, category_key)
      )`);
    await queryRunner.query(`
      CREATE FUNCTION notification_unread_counts_track() RETURNS trigger
      LANGUAGE plpgsql AS $$
      DECLARE
        tenant_ids uuid[]; operator_ids uuid[]; keys text[]; deltas bigint[];
      BEGIN
        IF TG_OP = 'TRUNCATE' THEN
          DELETE FROM notification_unread_counts;
          RETURN NULL;
        END IF;
        EXECUTE format($sql$
          WITH changed AS (%s), grouped AS (
            SELECT tenant_id, operator_id, coalesce(inbox_id::text, category) AS category_key, sum(delta)::bigint AS delta
              FROM changed WHERE read_at IS NULL GROUP BY 1, 2, 3 HAVING sum(delta) <> 0
          )
          SELECT array_agg(tenant_id ORDER BY tenant_id, operator_id, category_key), array_agg(operator_id ORDER BY tenant_id, operator_id, category_key),
                 array_agg(category_key ORDER BY tenant_id, operator_id, category_key), array_agg(delta ORDER BY tenant_id, operator_id, category_key)
            FROM grouped
        $sql$, changed_rows_sql(TG_OP)) INTO tenant_ids, operator_ids, keys, deltas;
        IF tenant_ids IS NOT NULL THEN
          INSERT INTO notification_unread_counts AS c (tenant_id, operator_id, category_key, unread)
          SELECT * FROM unnest(tenant_ids, operator_ids, keys, deltas)
          ON CONFLICT (tenant_id, operator_id, category_key) DO UPDATE SET unread = c.unread + excluded.unread;
          DELETE FROM notification_unread_counts c USING unnest(tenant_ids, operator_ids, keys) k (tenant_id, operator_id, category_key)
           WHERE c.tenant_id = k.tenant_id AND c.operator_id = k.operator_id AND c.category_key = k.category_key AND c.unread = 0;
        END IF;
        RETURN NULL;
      END $$`);
    await this.createCounterTriggers(queryRunner, 'notifications', 'notification_unread_counts_track');
  }

  /** The four statement-level triggers that keep a table's counters. */
  private async createCounterTriggers(queryRunner: QueryRunner, table: string, fn: string): Promise<void> {
    await queryRunner.query(`
      CREATE TRIGGER ${table}_counts_insert_trigger AFTER INSERT ON ${table}
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
    await queryRunner.query(`
      CREATE TRIGGER ${table}_counts_update_trigger AFTER UPDATE ON ${table}
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
    await queryRunner.query(`
      CREATE TRIGGER ${table}_counts_delete_trigger AFTER DELETE ON ${table}
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
    await queryRunner.query(`CREATE TRIGGER ${table}_counts_truncate_trigger AFTER TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE notification_unread_counts, notifications`);
    await queryRunner.query(`DROP FUNCTION notification_unread_counts_track()`);
    await queryRunner.query(`ALTER TABLE sessions DROP CONSTRAINT sessions_last_message_id_fkey`);
    await queryRunner.query(`DROP TABLE contact_session_counts, session_summaries, messages, sessions, inboxes, contacts`);
    await queryRunner.query(`DROP FUNCTION contact_session_counts_track(), sessions_follow_last_message()`);
    await queryRunner.query(`DROP TABLE shortcut_counts, shortcuts`);
    await queryRunner.query(`DROP FUNCTION shortcut_counts_track(), shortcut_counts_change(uuid[], text[], uuid[], bigint[])`);
    await queryRunner.query(`DROP FUNCTION changed_rows_sql(text)`);
    await queryRunner.query(`DROP COLLATION shortcut_bang_order`);
  }
}
