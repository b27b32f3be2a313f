import { PostgresSearch } from '@apps/services-api';
import { trustedTenantScope } from '@platform/auth';
import { Client, Pool } from 'pg';
import { BenchContext } from '../context';
import { cpuMicrosecondsOf } from '../process-usage';
import { answeringStatement, explainStatement, ms, RecordedStatement, recordingDataSource, timeCalls } from '../statement-timing';

/** Total messages of each run, over every tenant; the tables are emptied and loaded again for each. */
const SIZES = (process.env.BENCH_SEARCH_SIZES ?? '100000,1000000').split(',').map(Number);
const REPEATS = Number(process.env.BENCH_SEARCH_REPEATS ?? 25);
const INSERTS = Number(process.env.BENCH_SEARCH_INSERTS ?? 2_000);
const TENANTS = 200;
/** The spread: one tenant holds half the messages, a second a tenth (most of its sessions unlisted), the other 198 share the rest by a Zipf law. */
const BIG_SHARE = 0.5;
const PRIVATE_SHARE = 0.1;
const MESSAGES_PER_SESSION = 10;
const SESSIONS_PER_CONTACT = 2;
const OPERATORS = 50;
const VOCABULARY = 5_000;
const WORDS_PER_MESSAGE = 8;
/** Two years of history per tenant, oldest first. */
const HISTORY_START = '2024-12-01 00:00:00Z';
const HISTORY_SECONDS = 2 * 365 * 86_400;

/** The viewer operator (operator 0 of OPERATORS: every tenant's sessions are assigned round-robin). */
const VIEWER = operatorID(0);
function operatorID(index: number): string {
  return `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
}

/**
 * The words the searches look for, planted in the tenants' messages at known
 * rates over a background of VOCABULARY words drawn by a skewed law: a rare
 * word, a mid one, a common one, a phrase whose two words also occur apart,
 * and a seasonal word, frequent in the tenant's oldest fifth and absent
 * since (the planner, which knows the word's frequency but not its age,
 * walks back through the recent history looking for it).
 */
const MESSAGE_QUERIES: { label: string; q: string }[] = [
  { label: 'rare word (1 in 10,000)', q: 'reembolso' },
  { label: 'mid word (1 in 100)', q: 'boleto' },
  { label: 'common word (1 in 3)', q: 'obrigado' },
  { label: 'phrase (1 in 200; its words apart 1 in 20 and 1 in 100)', q: '"pedido atrasado"' },
  { label: 'seasonal word (1 in 50 of the oldest fifth)', q: 'greve' },
  { label: 'two mid words (1 in 100 each)', q: 'boleto pix' },
];

/** Contact names: a first name and a surname from skewed lists, 1 in 20,000 with a rare surname. */
const FIRST_NAMES = ['Ana', 'Maria', 'João', 'José', 'Pedro', 'Lucas', 'Juliana', 'Fernanda', 'Carlos', 'Paulo', 'Mariana', 'Rafael', 'Camila', 'Bruno', 'Larissa', 'Diego', 'Carmen', 'Sofía', 'Miguel', 'Laura'];
const SURNAMES = ['Silva', 'Santos', 'Oliveira', 'Souza', 'Rodrigues', 'Ferreira', 'Alves', 'Pereira', 'Lima', 'Gomes', 'Costa', 'Ribeiro', 'Martins', 'Carvalho', 'Almeida', 'López', 'García', 'Martínez', 'Smith', 'Nakamura'];

interface Viewer {
  label: string;
  tenantRank: number;
  operator: boolean;
}

/** Who searches: a viewer who sees all (a plugin installed on the tenant), and operators, on the big, the private and a median tenant. */
const VIEWERS: Viewer[] = [
  { label: 'big tenant, sees all', tenantRank: 1, operator: false },
  { label: 'big tenant, operator (90% listed)', tenantRank: 1, operator: true },
  { label: 'private tenant, operator (5% listed + own)', tenantRank: 2, operator: true },
  { label: 'median tenant, operator', tenantRank: 100, operator: true },
];

const say = (text: string) => process.stdout.write(`${text}\n`);

/**
 * Search at size (docs/search.md#when-search-should-leave-postgresql): the
 * search repository's statements (services-api's PostgresSearch, unchanged,
 * run on a recording connection) on messages and contacts spread over 200
 * tenants, for each total of BENCH_SEARCH_SIZES: p50/p95 and the backend's
 * CPU per statement over BENCH_SEARCH_REPEATS runs, the plans, match counts,
 * index sizes and build time, and what the GIN index costs an inbound
 * message's insert.
 */
export async function searchAtSize(context: BenchContext): Promise<void> {
  const client = new Client({ connectionString: context.databaseUrl });
  await client.connect();
  const pool = new Pool({ connectionString: context.databaseUrl, max: 1 });
  try {
    await client.query(
      `INSERT INTO operators (id, email, firstname, password_hash)
       SELECT ('00000000-0000-4000-8000-' || lpad(g::text, 12, '0'))::uuid, 'bench-search-' || g || '@bench.example', 'Operador ' || g, 'not-a-password-hash'
         FROM generate_series(0, $1 - 1) g`,
      [OPERATORS],
    );
    const searchIndex: string = (await client.query(`SELECT pg_get_indexdef('messages_search_idx'::regclass) AS def`)).rows[0].def;
    for (const size of SIZES) {
      say(`\n### ${size.toLocaleString('en')} messages\n`);
      await client.query('TRUNCATE tenants CASCADE');
      // Loaded without the GIN index, then built in one pass (as the migration builds it on an existing table).
      await client.query('DROP INDEX IF EXISTS messages_search_idx');
      const loading = await load(client, size);
      const build = await timed(() => client.query(searchIndex));
      await client.query('VACUUM ANALYZE messages, sessions, contacts, contact_handles, inboxes');
      say('| step | ms |\n|---|---:|');
      for (const [label, took] of [...loading, ['build messages_search_idx', build] as const]) say(`| ${label} | ${took.toLocaleString('en')} |`);
      await reportSizes(client);
      await measureSearches(client, pool);
      // Last: it drops messages_search_idx, which the next size's load builds again.
      await measureInserts(client, pool);
    }
  } finally {
    await pool.end();
    await client.end();
  }
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return Math.round(performance.now() - started);
}

/** Tenants, inboxes, contacts and handles, sessions and messages, by INSERT ... SELECT over generate_series. */
async function load(client: Client, size: number): Promise<[string, number][]> {
  const steps: [string, number][] = [];
  const step = async (label: string, text: string, params: unknown[] = []) => steps.push([label, await timed(() => client.query(text, params))]);
  await client.query('DROP TABLE IF EXISTS bench_tenants');
  await step(
    'tenants',
    `CREATE TABLE bench_tenants AS
     WITH zipf AS (SELECT sum(1.0 / r) AS h FROM generate_series(1, $2 - 2) r),
          shares AS (SELECT r AS rank, CASE r WHEN 1 THEN $3::float8 WHEN 2 THEN $4::float8 ELSE (1 - $3 - $4) * (1.0 / (r - 2)) / zipf.h END AS share
                       FROM generate_series(1, $2) r, zipf)
     SELECT rank, md5('tenant:' || rank)::uuid AS id, greatest($5, round($1 * share / $5) * $5)::int AS messages FROM shares`,
    [size, TENANTS, BIG_SHARE, PRIVATE_SHARE, MESSAGES_PER_SESSION * SESSIONS_PER_CONTACT],
  );
  await client.query(`ALTER TABLE bench_tenants ADD COLUMN sessions int, ADD COLUMN contacts int`);
  await client.query(`UPDATE bench_tenants SET sessions = messages / $1, contacts = messages / $1 / $2`, [MESSAGES_PER_SESSION, SESSIONS_PER_CONTACT]);
  await client.query(`INSERT INTO tenants (id, name) SELECT id, 'bench search ' || rank FROM bench_tenants`);
  await step(
    'inboxes',
    `INSERT INTO inboxes (id, tenant_id, name, channel, plugin_connection_id)
     SELECT md5(t.rank || ':i:' || g)::uuid, t.id, 'Inbox ' || g, 'whatsapp', md5(t.rank || ':p:' || g)::uuid FROM bench_tenants t, generate_series(0, 2) g`,
  );
  // Contacts over the tenant's two years; a skewed name (low indexes likelier); a phone handle each, an e-mail 1 in 5.
  await step(
    'contacts',
    `INSERT INTO contacts (id, tenant_id, name, created_at, updated_at)
     SELECT md5(t.rank || ':c:' || g)::uuid, t.id,
            ($1::text[])[least(20, floor(21 ^ random())::int)] || ' ' ||
            CASE WHEN random() < 1.0 / 20000 THEN 'Valderrama' ELSE ($2::text[])[least(20, floor(21 ^ random())::int)] END,
            at, at
       FROM bench_tenants t, generate_series(1, t.contacts) g,
            LATERAL (SELECT $3::timestamptz + (g::float8 / t.contacts * $4) * interval '1 second' AS at) a`,
    [FIRST_NAMES, SURNAMES, HISTORY_START, HISTORY_SECONDS],
  );
  await step(
    'contact handles',
    `INSERT INTO contact_handles (tenant_id, channel, handle, contact_id, created_at)
     SELECT c.tenant_id, 'whatsapp', '55' || lpad((11 + (h % 89))::text, 2, '0') || '9' || lpad(((h / 100) % 100000000)::text, 8, '0'), c.id, c.created_at
       FROM contacts c, LATERAL (SELECT ('x' || substr(md5(c.id::text), 1, 15))::bit(60)::bigint AS h) x
     UNION ALL
     SELECT c.tenant_id, 'email', lower(translate(replace(c.name, ' ', '.'), 'áéíóúãõçñ', 'aeiouaocn')) || '.' || substr(md5(c.id::text), 1, 4) || '@exemplo.com.br', c.id, c.created_at
       FROM contacts c WHERE get_byte(decode(md5(c.id::text), 'hex'), 0) < 51
     -- Two contacts of a tenant may draw the same number or address: the second goes without it.
     ON CONFLICT DO NOTHING`,
  );
  // Sessions over the history; 90% listed (5% in the private tenant, rank 2); assigned round-robin; a participant 1 in 7; the last 1% open.
  await step(
    'sessions',
    `INSERT INTO sessions (id, tenant_id, contact_id, inbox_id, operator_id, operator_participants_ids, channel, type, active, listed,
                           last_activity_at, created_at, updated_at, closed_at)
     SELECT md5(t.rank || ':s:' || g)::uuid, t.id, md5(t.rank || ':c:' || (1 + (g::bigint * 7919) % t.contacts))::uuid, md5(t.rank || ':i:' || g % 3)::uuid,
            ('00000000-0000-4000-8000-' || lpad((g % $1)::text, 12, '0'))::uuid,
            CASE WHEN g % 7 = 0 THEN ARRAY[('00000000-0000-4000-8000-' || lpad(((g / 7) % $1)::text, 12, '0'))::uuid] ELSE '{}'::uuid[] END,
            'whatsapp', 'chat', g > t.sessions * 0.99, CASE WHEN t.rank = 2 THEN g % 20 = 0 ELSE g % 10 <> 0 END,
            at, at, at, CASE WHEN g <= t.sessions * 0.99 THEN at + interval '1 hour' END
       FROM bench_tenants t, generate_series(1, t.sessions) g,
            LATERAL (SELECT $2::timestamptz + ((g - 1)::float8 / t.sessions * $3) * interval '1 second' AS at) a`,
    [OPERATORS, HISTORY_START, HISTORY_SECONDS],
  );
  // Eight words each from a skewed vocabulary, plus the planted words; 1 in 20 an image (no words). The insert's trigger names each session's last message.
  await step(
    'messages',
    `INSERT INTO messages (tenant_id, session_id, inbox_id, direction, key, status, value, created_at, updated_at)
     SELECT t.id, md5(t.rank || ':s:' || (1 + (g - 1) / $1))::uuid, md5(t.rank || ':i:' || ((1 + (g - 1) / $1) % 3))::uuid,
            CASE WHEN g % 2 = 0 THEN 'inbound' ELSE 'outbound' END,
            CASE WHEN g % 20 = 0 THEN 'image' ELSE 'text' END, 2,
            CASE WHEN g % 20 = 0 THEN jsonb_build_object('url', 'https://cdn.exemplo.com.br/' || g || '.jpg')
                 ELSE to_jsonb(words.text || planted.text) END,
            at, at
       FROM bench_tenants t, generate_series(1, t.messages) g,
            LATERAL (SELECT $2::timestamptz + ((g - 1)::float8 / t.messages * $3) * interval '1 second' AS at) a,
            LATERAL (SELECT string_agg('w' || floor($4 ^ random())::int, ' ') AS text FROM generate_series(1, $5) k WHERE g > 0) words,
            LATERAL (SELECT concat_ws(' ', '',
                       CASE WHEN random() < 1.0 / 10000 THEN 'reembolso' END,
                       CASE WHEN random() < 1.0 / 100 THEN 'boleto' END,
                       CASE WHEN random() < 1.0 / 100 THEN 'pix' END,
                       CASE WHEN random() < 1.0 / 3 THEN 'obrigado' END,
                       CASE WHEN random() < 1.0 / 200 THEN 'pedido atrasado' END,
                       CASE WHEN random() < 1.0 / 20 THEN 'o pedido' END,
                       CASE WHEN random() < 1.0 / 100 THEN 'chegou atrasado' END,
                       CASE WHEN g <= t.messages / 5 AND random() < 1.0 / 50 THEN 'greve' END) AS text
              WHERE g > 0) planted`,
    [MESSAGES_PER_SESSION, HISTORY_START, HISTORY_SECONDS, VOCABULARY, WORDS_PER_MESSAGE],
  );
  return steps;
}

async function reportSizes(client: Client): Promise<void> {
  const tenants = await client.query(`SELECT rank, messages, contacts FROM bench_tenants WHERE rank IN (1, 2, 3, 100, 200) ORDER BY rank`);
  say(`\ntenants: ${TENANTS}; ${tenants.rows.map((row) => `rank ${row.rank}: ${Number(row.messages).toLocaleString('en')} messages, ${Number(row.contacts).toLocaleString('en')} contacts`).join('; ')}`);
  const sizes = await client.query(
    `SELECT c.relname AS name, pg_relation_size(c.oid) AS bytes FROM pg_class c
      WHERE c.relname IN ('messages', 'messages_search_idx', 'messages_tenant_time_idx', 'messages_pkey', 'messages_session_order_idx',
                          'contacts', 'contacts_name_trgm_idx', 'contact_handles', 'contact_handles_handle_trgm_idx', 'sessions')
      ORDER BY c.relname`,
  );
  say('\n| relation | MiB |\n|---|---:|');
  for (const row of sizes.rows) say(`| ${row.name} | ${(Number(row.bytes) / 2 ** 20).toFixed(1)} |`);
}

interface Measured {
  label: string;
  viewer: string;
  matches: string;
  p50: number;
  p95: number;
  cpu: number;
  executionMs: number;
  buffers: number;
  rows: number;
  gaveWay: boolean;
}

async function measureSearches(client: Client, pool: Pool): Promise<void> {
  const { dataSource, recorded } = recordingDataSource(pool);
  const search = new PostgresSearch(dataSource);
  const results: Measured[] = [];
  for (const viewer of VIEWERS) {
    const tenant = (await client.query(`SELECT id FROM bench_tenants WHERE rank = $1`, [viewer.tenantRank])).rows[0].id as string;
    // The handle part: six digits from the middle of a contact's phone number, a third of the way into the tenant's history.
    const handle = (await client.query(
      `SELECT substr(h.handle, 6, 6) AS part FROM contacts c JOIN contact_handles h ON h.contact_id = c.id AND h.channel = 'whatsapp'
        WHERE c.tenant_id = $1 ORDER BY c.created_at OFFSET (SELECT contacts / 3 FROM bench_tenants WHERE id = $1) LIMIT 1`,
      [tenant],
    )).rows[0].part as string;
    const contactQueries = [
      { label: 'contact name part, common (silva)', q: 'silva' },
      { label: 'contact name part, rare (valderrama)', q: 'valderrama' },
      { label: 'contact name part, two letters (an)', q: 'an' },
      { label: `handle part (6 digits)`, q: handle },
      { label: 'handle part, e-mail domain (exemplo.com)', q: 'exemplo.com' },
    ];
    const visibility = viewer.operator ? ({ kind: 'operator', operatorID: VIEWER } as const) : ({ kind: 'all' } as const);
    const query = (text: string) => ({ scope: trustedTenantScope(tenant), visibility, text, after: undefined, limit: 21 });
    for (const { label, q } of MESSAGE_QUERIES) {
      results.push(await measure(pool, recorded, () => search.messages(query(q)), `messages: ${label}`, viewer.label, await messageMatches(client, tenant, q)));
    }
    for (const { label, q } of contactQueries) {
      results.push(await measure(pool, recorded, () => search.contacts(query(q)), `contacts: ${label}`, viewer.label, await contactMatches(client, tenant, q)));
    }
  }
  say('\n| search | viewer | tenant matches | p50 ms | p95 ms | server CPU ms | EXPLAIN ms | buffers | rows | plan gave way |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of results) {
    say(`| ${r.label} | ${r.viewer} | ${r.matches} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.cpu)} | ${ms(r.executionMs)} | ${r.buffers.toLocaleString('en')} | ${r.rows} | ${r.gaveWay ? 'yes' : ''} |`);
  }
}

/**
 * One search timed as the repository runs it (its transaction, and a second
 * run when the first overruns its plan budget), then the plan of the
 * statement that answered, under the settings it answered with.
 */
async function measure(pool: Pool, recorded: RecordedStatement[], call: () => Promise<unknown[]>, label: string, viewer: string, matches: string): Promise<Measured> {
  const timing = await timeCalls(pool, call, REPEATS);
  recorded.length = 0;
  const rows = (await call()).length;
  const { statement, settings } = answeringStatement(recorded);
  const plan = await explainStatement(pool, statement, settings);
  say(`\n#### plan: ${label}; ${viewer}${settings.length ? ` (${settings.join('; ')})` : ''}\n\`\`\`\n${plan.text}\n\`\`\``);
  return { label, viewer, matches, p50: timing.p50, p95: timing.p95, cpu: timing.serverCpu, executionMs: plan.executionMs, buffers: plan.buffers, rows, gaveWay: settings.length > 0 };
}

const WORDS = `to_tsvector('simple'::regconfig, CASE WHEN jsonb_typeof(value) = 'string' THEN value #>> '{}' ELSE '' END)`;

async function messageMatches(client: Client, tenant: string, q: string): Promise<string> {
  const row = (await client.query(`SELECT count(*) AS n FROM messages WHERE tenant_id = $1 AND ${WORDS} @@ websearch_to_tsquery('simple', $2)`, [tenant, q])).rows[0];
  return Number(row.n).toLocaleString('en');
}

async function contactMatches(client: Client, tenant: string, q: string): Promise<string> {
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const row = (await client.query(
    `SELECT count(*) AS n FROM contacts c WHERE c.tenant_id = $1
        AND (c.name ILIKE $2 OR EXISTS (SELECT 1 FROM contact_handles h WHERE h.tenant_id = $1 AND h.contact_id = c.id AND h.handle ILIKE $2))`,
    [tenant, pattern],
  )).rows[0];
  return Number(row.n).toLocaleString('en');
}

/**
 * An inbound message's insert (the columns and conflict rule of services-api's
 * INSERT_INBOUND) into one session of the big tenant, INSERTS times with the
 * GIN index and again after dropping it: the backend's CPU per insert, and the time
 * to merge the index's pending list (where GIN's fast update defers most of
 * the work) into the index.
 */
async function measureInserts(client: Client, pool: Pool): Promise<void> {
  const session = (await client.query(
    `SELECT s.id, s.tenant_id, s.inbox_id FROM sessions s JOIN bench_tenants t ON t.id = s.tenant_id AND t.rank = 1 WHERE s.closed_at IS NULL LIMIT 1`,
  )).rows[0];
  const backend: number = (await pool.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
  const insert = async (round: string) => {
    const before = cpuMicrosecondsOf(backend);
    const started = performance.now();
    for (let n = 0; n < INSERTS; n += 1) {
      await pool.query(
        `INSERT INTO messages (tenant_id, session_id, inbox_id, direction, key, status, value, channel_message_id, created_at, updated_at)
         VALUES ($1, $2, $3, 'inbound', 'text', 0, $4::jsonb, $5, clock_timestamp(), clock_timestamp())
         ON CONFLICT (tenant_id, inbox_id, channel_message_id) WHERE channel_message_id IS NOT NULL DO NOTHING RETURNING id`,
        [session.tenant_id, session.id, session.inbox_id, JSON.stringify(`Olá, meu pedido ${n} ainda não chegou, o boleto foi pago ontem ${round}`), `bench-${round}-${n}`],
      );
    }
    return { cpu: (cpuMicrosecondsOf(backend) - before) / 1000 / INSERTS, wall: (performance.now() - started) / INSERTS };
  };
  const withIndex = await insert('with');
  const pending = await timed(() => client.query(`SELECT gin_clean_pending_list('messages_search_idx')`));
  await client.query('DROP INDEX messages_search_idx');
  const withoutIndex = await insert('without');
  say(`\n| inbound insert (${INSERTS.toLocaleString('en')} in a row) | server CPU ms per insert | wall ms per insert |\n|---|---:|---:|`);
  say(`| with messages_search_idx | ${ms(withIndex.cpu)} | ${ms(withIndex.wall)} |`);
  say(`| without it | ${ms(withoutIndex.cpu)} | ${ms(withoutIndex.wall)} |`);
  say(`| merging the ${INSERTS.toLocaleString('en')} inserts' pending list into the index | ${ms(pending / INSERTS)} (wall, per insert; ${pending} ms in all) | |`);
}
