import { Client } from 'pg';

/** How much data the conversations benchmark loads into its big tenant. */
export interface ConversationScale {
  operators: number;
  shortcuts: number;
  /** Of every 10 shortcuts, how many are company-wide (the rest are personal, spread over the operators). */
  companyPerTen: number;
  contacts: number;
  sessions: number;
  targetContactSessions: number;
  notifications: number;
  inboxes: number;
}

/** The scale: 100,000 shortcuts, 1,000,000 sessions (5,000 of one contact), 1,000,000 notifications. */
export const FULL_SCALE: ConversationScale = {
  operators: 300,
  shortcuts: 100_000,
  companyPerTen: 6,
  contacts: 100_000,
  sessions: 1_000_000,
  targetContactSessions: 5_000,
  notifications: 1_000_000,
  inboxes: 5,
};

/** The small tenant beside it, for the 1,000-row side of the "within 1.5x" comparison. */
export const SMALL_SCALE: ConversationScale = {
  operators: 10,
  shortcuts: 1_000,
  companyPerTen: 6,
  contacts: 100,
  sessions: 1_000,
  targetContactSessions: 50,
  notifications: 1_000,
  inboxes: 5,
};

export interface LoadedTenant {
  tenantID: string;
  /** The first operator: the viewer of every measured request. */
  operatorIDs: string[];
  targetContactID: string;
  timings: Record<string, number>;
}

const BANG_WORDS = ['Bom dia', 'Olá', 'Ação', 'atendimento', 'Boleto', 'Ébano', 'zebra', 'Promoção', 'entrega', 'Horário'];

/**
 * Loads one tenant with INSERT ... SELECT over generate_series, with every
 * trigger and constraint of the schema active (counters are kept by the
 * triggers, as in production). Sessions name their last message before it
 * exists, under the deferred sessions_last_message_id_fkey, so the
 * last-message trigger finds nothing to update.
 */
export async function loadConversationTenant(client: Client, name: string, scale: ConversationScale): Promise<LoadedTenant> {
  const timings: Record<string, number> = {};
  const step = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await work();
    timings[label] = Math.round(performance.now() - started);
    return result;
  };

  const tenantID: string = (await client.query('INSERT INTO tenants (name) VALUES ($1) RETURNING id', [name])).rows[0].id;
  const operatorIDs: string[] = await step('operators', async () => {
    const rows = await client.query(
      `WITH made AS (
         INSERT INTO operators (email, firstname, password_hash)
         SELECT 'bench-' || $2 || '-' || g || '@bench.example', 'Operador ' || g, 'not-a-password-hash' FROM generate_series(1, $1) g
         RETURNING id, firstname
       ), joined AS (
         INSERT INTO memberships (tenant_id, operator_id, role)
         SELECT $3, id, CASE WHEN firstname = 'Operador 1' THEN 'owner' ELSE 'member' END FROM made
       )
       SELECT id FROM made ORDER BY firstname = 'Operador 1' DESC, id`,
      [scale.operators, tenantID.slice(0, 8), tenantID],
    );
    return rows.rows.map((row: { id: string }) => row.id);
  });

  await step('shortcuts', () =>
    client.query(
      `INSERT INTO shortcuts (tenant_id, organization_id, operator_id, scope, bang, preview, contents)
       SELECT $1, $1, ($2::uuid[])[1 + (g / 10) % array_length($2::uuid[], 1)],
              CASE WHEN g % 10 < $4 THEN 'tenant-based' ELSE 'user-based' END,
              '/' || ($3::text[])[1 + (g * 7) % 10] || ' ' || substr(md5(g::text), 1, 8),
              'Resposta pronta ' || substr(md5('p' || g), 1, 12) || ' sobre ' || ($3::text[])[1 + (g * 3) % 10],
              jsonb_build_array(jsonb_build_object('contentID', gen_random_uuid(), 'contentKey', 'text', 'contentValue', 'Texto ' || g))
         FROM generate_series(1, $5) g`,
      [tenantID, operatorIDs, BANG_WORDS, scale.companyPerTen, scale.shortcuts],
    ),
  );

  const targetContactID: string = await step('contacts and inboxes', async () => {
    await client.query(`INSERT INTO contacts (tenant_id, name) SELECT $1, 'Contato ' || g FROM generate_series(1, $2) g`, [tenantID, scale.contacts]);
    await client.query(`INSERT INTO inboxes (tenant_id, name, channel) SELECT $1, 'Inbox ' || g, 'whatsapp' FROM generate_series(1, $2) g`, [tenantID, scale.inboxes]);
    return (await client.query(`INSERT INTO contacts (tenant_id, name) VALUES ($1, 'Maria Frequente') RETURNING id`, [tenantID])).rows[0].id;
  });

  await client.query('BEGIN');
  await client.query('SET CONSTRAINTS sessions_last_message_id_fkey DEFERRED');
  await step('sessions', () =>
    client.query(
      `WITH contact_ids AS (SELECT array_agg(id) AS ids FROM contacts WHERE tenant_id = $1 AND id <> $2),
            inbox_ids AS (SELECT array_agg(id) AS ids FROM inboxes WHERE tenant_id = $1)
       INSERT INTO sessions (tenant_id, contact_id, inbox_id, operator_id, operator_participants_ids, channel, type, active, listed,
                             last_message_id, last_activity_at, created_at, updated_at, closed_at)
       SELECT $1,
              CASE WHEN g <= $4 THEN $2 ELSE contact_ids.ids[1 + g % array_length(contact_ids.ids, 1)] END,
              inbox_ids.ids[1 + g % array_length(inbox_ids.ids, 1)],
              ($3::uuid[])[1 + (g / 3) % array_length($3::uuid[], 1)],
              CASE WHEN g % 7 = 0 THEN ARRAY[($3::uuid[])[1 + (g / 7) % array_length($3::uuid[], 1)]] ELSE '{}'::uuid[] END,
              'whatsapp', 'chat', g % 20 = 0, g % 10 <> 0,
              gen_random_uuid(), at, at - interval '1 hour', at, CASE WHEN g % 20 <> 0 THEN at END
         FROM generate_series(1, $5) g, contact_ids, inbox_ids,
              LATERAL (SELECT timestamptz '2026-01-01 00:00:00Z' + g * interval '20 seconds' + ((g::bigint * 7919) % 86400) * interval '1 second' AS at) t`,
      [tenantID, targetContactID, operatorIDs, scale.targetContactSessions, scale.sessions],
    ),
  );
  await step('messages', () =>
    client.query(
      `INSERT INTO messages (id, tenant_id, session_id, direction, key, status, value, created_at, updated_at)
       SELECT last_message_id, tenant_id, id, CASE WHEN listed THEN 'inbound' ELSE 'outbound' END, 'text', 2,
              to_jsonb('Mensagem de ' || to_char(last_activity_at, 'DD/MM HH24:MI')), last_activity_at, last_activity_at
         FROM sessions WHERE tenant_id = $1`,
      [tenantID],
    ),
  );
  await step('commit (deferred last-message keys)', () => client.query('COMMIT'));
  await step('session summaries', () =>
    client.query(
      `INSERT INTO session_summaries (session_id, tenant_id, summary)
       SELECT id, tenant_id, jsonb_build_object('text', 'Cliente perguntou sobre a entrega.', 'sentiment', 'neutral')
         FROM sessions WHERE tenant_id = $1 AND (contact_id = $2 OR last_activity_at::time < '02:24')`,
      [tenantID, targetContactID],
    ),
  );

  await step('notifications', () =>
    client.query(
      `WITH inbox_ids AS (SELECT array_agg(id) AS ids FROM inboxes WHERE tenant_id = $1)
       INSERT INTO notifications (tenant_id, operator_id, category, inbox_id, read_at, created_at)
       SELECT $1, ($2::uuid[])[1 + g % array_length($2::uuid[], 1)], category,
              CASE WHEN category = 'inbox' THEN inbox_ids.ids[1 + (g / 11) % array_length(inbox_ids.ids, 1)] END,
              CASE WHEN random() < 0.4 THEN now() END, now() - g * interval '1 second'
         FROM generate_series(1, $3) g, inbox_ids,
              LATERAL (SELECT (ARRAY['inbox', 'inbox', 'inbox', 'mention', 'assignment', 'system'])[1 + (g / 13) % 6] AS category) c`,
      [tenantID, operatorIDs, scale.notifications],
    ),
  );
  return { tenantID, operatorIDs, targetContactID, timings };
}
