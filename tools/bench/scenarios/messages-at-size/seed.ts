import { Client } from 'pg';

/** Tenants of the spread: one holds BIG_SHARE of the messages, a second SECOND_SHARE, the other 198 share the rest by a Zipf law. */
const TENANTS = 200;
const BIG_SHARE = 0.3;
const SECOND_SHARE = 0.1;
const MIN_MESSAGES_PER_TENANT = 20;
/** Session lengths: a Pareto law (most sessions a few messages), capped at MAX_SESSION_MESSAGES; mean about 5. */
const PARETO_ALPHA = 1.15;
const MAX_SESSION_MESSAGES = 5_000;
const MESSAGE_GAP_SECONDS = 20;
export const OPERATORS = 50;
const INBOXES_PER_TENANT = 3;
/** Two years of history, ending a day before the seed. */
const HISTORY_DAYS = 730;
/** The outbox keeps WEBHOOK_DELIVERY_RETENTION_DAYS (30 by default) of events, all consumed. */
const OUTBOX_DAYS = 30;
/** Every TARGET_EVERY-th session of the big tenant is the target contact's (operation 11's list). */
const TARGET_EVERY = 250;

export function operatorID(index: number): string {
  return `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
}
export const VIEWER = operatorID(0);
export const TARGET_CONTACT = '00000000-0000-4000-8000-00000000c0de';

/** What the measurements need to know of a seeded database. */
export interface SeededData {
  messages: number;
  sessions: number;
  seedSeconds: number;
  bigTenantID: string;
  /** The big tenant's first session: MAX_SESSION_MESSAGES messages. */
  longSessionID: string;
  /** The big tenant's first inbox: its queue is read, and inbound posts land in it. */
  inboxID: string;
}

/** The seed of a database (its marker table), or undefined when it was never seeded. */
export async function seeded(client: Client): Promise<SeededData | undefined> {
  const exists = (await client.query(`SELECT to_regclass('bench_seed') IS NOT NULL AS present`)).rows[0].present;
  if (!exists) return undefined;
  const row = (await client.query('SELECT data FROM bench_seed')).rows[0];
  return row?.data;
}

/**
 * Seeds `size` messages (about: a tenant's last session is cut to fit) as the
 * write path leaves them, set-based: tenants, operators and memberships,
 * inboxes, contacts, sessions with their counts, messages (the secondary
 * indexes dropped during the load and built after in one pass each), the
 * outbox's last 30 days of consumed events, then VACUUM ANALYZE. Foreign keys
 * and triggers are off during the bulk inserts (session_replication_role):
 * the seed writes what the triggers would (each session's last message, the
 * contacts' session counts, no pending outbox rows).
 */
export async function seed(client: Client, size: number, say: (text: string) => void): Promise<SeededData> {
  const started = performance.now();
  const step = async (label: string, text: string, params: unknown[] = []) => {
    const stepStarted = performance.now();
    const result = await client.query(text, params);
    say(`| ${label} | ${Math.round(performance.now() - stepStarted).toLocaleString('en')} | ${(result.rowCount ?? 0).toLocaleString('en')} |`);
  };
  say('| seed step | ms | rows |\n|---|---:|---:|');
  await client.query(`SET maintenance_work_mem = '1GB'`);
  await client.query(`SET work_mem = '256MB'`);
  await client.query('DROP TABLE IF EXISTS bench_seed, bench_tenants, bench_plan');
  await client.query(`CREATE TABLE bench_seed (data jsonb NOT NULL)`);
  // Ids drawn from a text, shaped as the version 4 UUIDs the API's validation accepts.
  await client.query(
    `CREATE OR REPLACE FUNCTION bench_uuid(seed text) RETURNS uuid LANGUAGE sql IMMUTABLE PARALLEL SAFE
       AS $$ SELECT (substr(h, 1, 12) || '4' || substr(h, 14, 3) || '8' || substr(h, 18, 15))::uuid FROM md5(seed) h $$`,
  );
  await step(
    'tenants (plan)',
    `CREATE UNLOGGED TABLE bench_tenants AS
     WITH zipf AS (SELECT sum(1.0 / r) AS h FROM generate_series(1, $2 - 2) r),
          shares AS (SELECT r AS rank, CASE r WHEN 1 THEN $3::float8 WHEN 2 THEN $4::float8 ELSE (1 - $3 - $4) * (1.0 / (r - 2)) / zipf.h END AS share
                       FROM generate_series(1, $2) r, zipf)
     SELECT rank, bench_uuid('tenant:' || rank) AS id, greatest($5, round($1 * share))::bigint AS messages FROM shares`,
    [size, TENANTS, BIG_SHARE, SECOND_SHARE, MIN_MESSAGES_PER_TENANT],
  );
  // Sessions drawn until each tenant's messages are spent; the big tenant's first is the longest.
  await step(
    'sessions (plan)',
    `CREATE UNLOGGED TABLE bench_plan AS
     WITH drawn AS (
       SELECT t.rank, g,
              CASE WHEN t.rank = 1 AND g = 1 THEN $2::int ELSE least($2::int, floor(power(1 - u, -1 / $1::float8)))::int END AS len
         FROM bench_tenants t, generate_series(1, (t.messages / 3 + 20)::int) g,
              LATERAL (SELECT (hashint8(t.rank::bigint * 100000000 + g) & 2147483647)::float8 / 2147483648 AS u) h),
     summed AS (SELECT *, sum(len) OVER (PARTITION BY rank ORDER BY g) - len AS before FROM drawn)
     SELECT s.rank, t.id AS tenant_id, s.g, least(s.len, t.messages - s.before)::int AS len, s.before::bigint AS before,
            bench_uuid('s:' || s.rank || ':' || s.g) AS id, bench_uuid(s.rank || ':i:' || s.g % $4) AS inbox_id, bench_uuid('m:' || s.rank || ':' || s.g) AS last_message_id,
            now() - interval '1 day' - make_interval(days => $3::int) + (s.before::float8 / t.messages * $3::int) * interval '1 day' AS at,
            s.before > t.messages * 0.99 AS open
       FROM summed s JOIN bench_tenants t USING (rank) WHERE s.before < t.messages`,
    [PARETO_ALPHA, MAX_SESSION_MESSAGES, HISTORY_DAYS, INBOXES_PER_TENANT],
  );
  await client.query('CREATE INDEX ON bench_plan (rank)');
  await client.query('ALTER TABLE bench_tenants ADD COLUMN sessions int');
  await client.query('UPDATE bench_tenants t SET sessions = (SELECT count(*) FROM bench_plan p WHERE p.rank = t.rank)');
  await client.query(`SET session_replication_role = replica`);
  await step('tenants', `INSERT INTO tenants (id, name) SELECT id, 'bench messages ' || rank FROM bench_tenants`);
  await step(
    'operators',
    `INSERT INTO operators (id, email, firstname, password_hash)
     SELECT ('00000000-0000-4000-8000-' || lpad(g::text, 12, '0'))::uuid, 'bench-messages-' || g || '@bench.example', 'Operador ' || g, 'not-a-password-hash'
       FROM generate_series(0, $1 - 1) g`,
    [OPERATORS],
  );
  await step(
    'memberships',
    `INSERT INTO memberships (tenant_id, operator_id, role)
     SELECT t.id, ('00000000-0000-4000-8000-' || lpad(g::text, 12, '0'))::uuid, CASE WHEN g = 0 THEN 'owner' ELSE 'member' END
       FROM bench_tenants t, generate_series(0, $1 - 1) g`,
    [OPERATORS],
  );
  await step(
    'inboxes',
    `INSERT INTO inboxes (id, tenant_id, name, channel) SELECT bench_uuid(t.rank || ':i:' || g), t.id, 'Inbox ' || g, 'whatsapp' FROM bench_tenants t, generate_series(0, $1 - 1) g`,
    [INBOXES_PER_TENANT],
  );
  await step(
    'contacts',
    `INSERT INTO contacts (id, tenant_id, name, created_at, updated_at)
     SELECT bench_uuid(t.rank || ':c:' || g), t.id, 'Contato ' || g, now() - make_interval(days => $1), now() - make_interval(days => $1)
       FROM bench_tenants t, generate_series(0, greatest(1, t.sessions / 2) - 1) g
     UNION ALL SELECT $2::uuid, (SELECT id FROM bench_tenants WHERE rank = 1), 'Contato frequente', now() - make_interval(days => $1), now() - make_interval(days => $1)`,
    [HISTORY_DAYS, TARGET_CONTACT],
  );
  // 90% listed; assigned round-robin, a participant 1 in 7; closed an hour after the last message, but the newest 1% open.
  await step(
    'sessions',
    `INSERT INTO sessions (id, tenant_id, contact_id, inbox_id, operator_id, operator_participants_ids, channel, type, active, listed,
                           last_message_id, last_activity_at, created_at, updated_at, closed_at)
     SELECT p.id, p.tenant_id,
            CASE WHEN p.rank = 1 AND p.g % $2 = 2 THEN $3::uuid ELSE bench_uuid(p.rank || ':c:' || ((p.g::bigint * 7919) % greatest(1, t.sessions / 2))) END,
            p.inbox_id,
            ('00000000-0000-4000-8000-' || lpad((p.g % $1)::text, 12, '0'))::uuid,
            CASE WHEN p.g % 7 = 0 THEN ARRAY[('00000000-0000-4000-8000-' || lpad(((p.g / 7) % $1)::text, 12, '0'))::uuid] ELSE '{}'::uuid[] END,
            'whatsapp', 'chat', p.open, p.g % 10 <> 0, p.last_message_id, last_at, p.at, last_at,
            CASE WHEN NOT p.open THEN last_at + interval '1 hour' END
       FROM bench_plan p JOIN bench_tenants t USING (rank), LATERAL (SELECT p.at + (p.len - 1) * make_interval(secs => $4) AS last_at) l`,
    [OPERATORS, TARGET_EVERY, TARGET_CONTACT, MESSAGE_GAP_SECONDS],
  );
  await step(
    'contact session counts',
    `INSERT INTO contact_session_counts (tenant_id, contact_id, total, listed)
     SELECT tenant_id, contact_id, count(*), count(*) FILTER (WHERE listed) FROM sessions GROUP BY 1, 2`,
  );
  const dropped = await dropSecondaryIndexes(client, 'messages');
  // Per tenant, to bound each statement; inbound and outbound alternate; words from a skewed vocabulary with the searches' planted words.
  const messagesStarted = performance.now();
  let messages = 0;
  const ranks = (await client.query('SELECT rank FROM bench_tenants ORDER BY rank')).rows.map((row) => Number(row.rank));
  for (const rank of ranks) {
    const result = await client.query(
      `INSERT INTO messages (id, tenant_id, session_id, inbox_id, direction, key, status, value, created_at, updated_at, channel_message_id, delivery_status, operator_id)
       SELECT CASE WHEN k = p.len THEN p.last_message_id ELSE gen_random_uuid() END, p.tenant_id, p.id, p.inbox_id,
              CASE WHEN k % 2 = 1 THEN 'inbound' ELSE 'outbound' END, 'text', 2,
              to_jsonb(concat_ws(' ', 'w' || floor(5000 ^ random())::int, 'w' || floor(5000 ^ random())::int, 'w' || floor(5000 ^ random())::int,
                                 'w' || floor(5000 ^ random())::int, 'w' || floor(5000 ^ random())::int, 'w' || floor(5000 ^ random())::int,
                                 CASE WHEN random() < 1.0 / 10000 THEN 'reembolso' END, CASE WHEN random() < 1.0 / 100 THEN 'boleto' END,
                                 CASE WHEN random() < 1.0 / 3 THEN 'obrigado' END)),
              sent_at, sent_at,
              CASE WHEN k % 2 = 1 THEN 'wamid.' || p.rank || '.' || p.g || '.' || k END,
              CASE WHEN k % 2 = 0 THEN 'read' END,
              CASE WHEN k % 2 = 0 THEN ('00000000-0000-4000-8000-' || lpad((p.g % $2)::text, 12, '0'))::uuid END
         FROM bench_plan p, generate_series(1, p.len) k, LATERAL (SELECT p.at + (k - 1) * make_interval(secs => $3) AS sent_at) a
        WHERE p.rank = $1`,
      [rank, OPERATORS, MESSAGE_GAP_SECONDS],
    );
    messages += result.rowCount ?? 0;
  }
  say(`| messages (${ranks.length} statements) | ${Math.round(performance.now() - messagesStarted).toLocaleString('en')} | ${messages.toLocaleString('en')} |`);
  // The outbox as the write path leaves it: message.created of the last 30 days, every consumer done (no outbox_pending rows).
  await step(
    'outbox (webhook_events)',
    `INSERT INTO webhook_events (tenant_id, type, version, ordering_key, data, occurred_at, emitted_by, dispatched_at, streamed_at)
     SELECT m.tenant_id, 'message.created', 1, 'session:' || m.session_id,
            jsonb_build_object('sessionID', m.session_id, 'message', jsonb_build_object('messageID', m.id, 'direction', m.direction, 'key', m.key,
                               'value', m.value, 'createdAt', m.created_at, 'channelMessageID', m.channel_message_id)),
            m.created_at, 'services-api', m.created_at, m.created_at
       FROM messages m WHERE m.created_at > now() - make_interval(days => $1)`,
    [OUTBOX_DAYS],
  );
  await client.query(`SET session_replication_role = DEFAULT`);
  for (const [name, definition] of dropped) await step(`index ${name}`, definition);
  const vacuumStarted = performance.now();
  await client.query('VACUUM ANALYZE');
  say(`| VACUUM ANALYZE | ${Math.round(performance.now() - vacuumStarted).toLocaleString('en')} | |`);
  const seedSeconds = Math.round((performance.now() - started) / 1000);
  const big = (await client.query(`SELECT t.id, (SELECT id FROM bench_plan WHERE rank = 1 AND g = 1) AS session FROM bench_tenants t WHERE rank = 1`)).rows[0];
  const data: SeededData = {
    messages,
    sessions: Number((await client.query('SELECT count(*) AS n FROM bench_plan')).rows[0].n),
    seedSeconds,
    bigTenantID: big.id,
    longSessionID: big.session,
    inboxID: (await client.query(`SELECT bench_uuid('1:i:0') AS id`)).rows[0].id,
  };
  await client.query('INSERT INTO bench_seed (data) VALUES ($1)', [data]);
  say(`\nseeded ${messages.toLocaleString('en')} messages in ${data.sessions.toLocaleString('en')} sessions in ${seedSeconds.toLocaleString('en')} s`);
  return data;
}

/** Drops a table's indexes other than its primary key; answers their names and definitions, to build them again after a bulk load. */
async function dropSecondaryIndexes(client: Client, table: string): Promise<[string, string][]> {
  const found = await client.query(
    `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS definition, c.conname AS constraint
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid LEFT JOIN pg_constraint c ON c.conindid = i.oid
      WHERE x.indrelid = $1::regclass AND NOT x.indisprimary`,
    [table],
  );
  for (const row of found.rows) {
    await client.query(row.constraint ? `ALTER TABLE ${table} DROP CONSTRAINT ${row.constraint}` : `DROP INDEX ${row.name}`);
  }
  return found.rows.map((row) => [row.name, row.definition]);
}
