import { ContactSessionsRepository, ListContactSessionsUseCase } from '@apps/services-api';
import { Client, Pool } from 'pg';
import { DataSource } from 'typeorm';
import { BenchContext } from '../context';
import { passedAccessCheck } from '../passed-access-check';

/** 10,000,000 sessions over five years: one table, then the same rows in a partitioned one. */
const SESSIONS = Number(process.env.BENCH_PARTITION_SESSIONS ?? 10_000_000);
const FIRST_DAY = '2022-01-01';
const YEARS = 5;
/** The contact whose list is read: 5,000 sessions spread over the five years. */
const TARGET_EVERY = Math.max(1, Math.floor(SESSIONS / 5_000));
const CONTACTS = 1_000_000;
const OPERATORS = 300;
/** One message in five sessions, and the target contact's: the last-message lookups of operation 11. */
const MESSAGE_EVERY = 5;
const PER_PAGE = 50;

const TARGET_CONTACT = '00000000-0000-4000-8000-00000000c0de';
const TENANT = '00000000-0000-4000-8000-0000000a0a0a';
const VIEWER = '00000000-0000-4000-8000-000000000001';

/**
 * Operation 11's page as it would be written for partitioned tables: the page
 * carries each session's partition key, and a session's last activity is its
 * last message's created_at, so every lookup names its partition.
 */
const PAGE_BY_PARTITION_KEY = `
  WITH page AS (
    SELECT v.id, v.created_at, v.last_activity_at FROM sessions v
     WHERE v.tenant_id = $1 AND v.contact_id = $2 AND (v.listed OR v.operator_id = $3 OR $3 = ANY (v.operator_participants_ids))
     ORDER BY v.last_activity_at DESC, v.id DESC LIMIT $4
  )
  SELECT s.id, s.listed, s.closed_at, m.direction, m.key, m.status, m.value, ss.summary FROM page
    JOIN sessions s ON s.id = page.id AND s.created_at = page.created_at
    LEFT JOIN messages m ON m.id = s.last_message_id AND m.created_at = s.last_activity_at
    LEFT JOIN session_summaries ss ON ss.session_id = s.id
   ORDER BY page.last_activity_at DESC, page.id DESC`;

const say = (text: string) => process.stdout.write(`${text}\n`);

/**
 * The partitioning plan of docs/scaling.md, measured: operation 11's real
 * statements (the services-api repository, unchanged) on 10,000,000 sessions
 * in one plain table and in a table partitioned by quarter of `created_at`,
 * with messages partitioned by month, plus what retention costs each way
 * (DELETE of the oldest quarter against DETACH and DROP of its partition).
 * The tables live in schemas of their own (`bench_plain`, `bench_partitioned`)
 * with the columns and indexes of the real ones; the repository reaches them
 * through search_path.
 */
export async function partitioning(context: BenchContext): Promise<void> {
  const client = new Client({ connectionString: context.databaseUrl });
  await client.connect();
  const timings: [string, number][] = [];
  const timed = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await work();
    timings.push([label, Math.round(performance.now() - started)]);
    return result;
  };
  try {
    await createSchemas(client);
    await timed(`load ${SESSIONS.toLocaleString('en')} sessions (plain)`, () => loadPlain(client));
    await timed('copy them into the partitioned table', () => client.query('INSERT INTO bench_partitioned.sessions SELECT * FROM bench_plain.sessions'));
    await timed('copy the messages into the partitioned table', () => client.query('INSERT INTO bench_partitioned.messages SELECT * FROM bench_plain.messages'));
    for (const schema of ['bench_plain', 'bench_partitioned']) {
      await timed(`indexes, ${schema}`, () => createIndexes(client, schema));
      await client.query(`INSERT INTO ${schema}.contact_session_counts (tenant_id, contact_id, total, listed)
                          SELECT tenant_id, contact_id, count(*), count(*) FILTER (WHERE listed) FROM ${schema}.sessions
                           WHERE tenant_id = $1 AND contact_id = $2 GROUP BY 1, 2`, [TENANT, TARGET_CONTACT]);
      await timed(`VACUUM ANALYZE, ${schema}`, () => client.query(`VACUUM ANALYZE ${schema}.sessions, ${schema}.messages, ${schema}.contact_session_counts`));
    }

    const sizes = await client.query(
      `SELECT n.nspname AS schema, sum(pg_total_relation_size(c.oid)) FILTER (WHERE c.relname LIKE 'sessions%') AS sessions_bytes,
              count(*) FILTER (WHERE c.relname LIKE 'sessions_p%' AND c.relkind = 'r') AS partitions
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname IN ('bench_plain', 'bench_partitioned') AND c.relkind IN ('r', 'i') GROUP BY 1 ORDER BY 1`,
    );
    const visible = await client.query('SELECT listed FROM bench_plain.contact_session_counts WHERE contact_id = $1', [TARGET_CONTACT]);
    const lastPage = Math.max(1, Math.ceil(Number(visible.rows[0]?.listed ?? 0) / PER_PAGE));

    say('\n| layout | sessions (table + indexes) | partitions |\n|---|---:|---:|');
    for (const row of sizes.rows) say(`| ${row.schema} | ${Math.round(Number(row.sessions_bytes) / 2 ** 20)} MiB | ${row.partitions} |`);

    const results: string[] = [];
    for (const schema of ['bench_plain', 'bench_partitioned']) {
      // One connection: the warm-up run must be on the backend that EXPLAINs (its first touch of 80 partitions loads their catalog entries).
      const pool = new Pool({ connectionString: context.databaseUrl, max: 1, options: `-c search_path=${schema}` });
      try {
        for (const page of [1, lastPage]) {
          const plans = await explainOperation11(pool, page);
          for (const plan of plans) {
            say(`\n### plan: op 11 page ${page} of ${lastPage}, ${schema}\n\`\`\`\n${plan.text}\n\`\`\``);
            results.push(`| op 11 page ${page} of ${lastPage} | ${schema} | ${plan.executionMs.toFixed(2)} ms | ${plan.buffers} |`);
          }
        }
        const keyed = await explainText(pool, PAGE_BY_PARTITION_KEY, [TENANT, TARGET_CONTACT, VIEWER, PER_PAGE]);
        say(`\n### plan: op 11 page 1 joined by the partition keys, ${schema}\n\`\`\`\n${keyed.text}\n\`\`\``);
        results.push(`| op 11 page 1 joined by the partition keys (id, created_at) | ${schema} | ${keyed.executionMs.toFixed(2)} ms | ${keyed.buffers} |`);
      } finally {
        await pool.end();
      }
    }
    say('\n| statement | layout | execution | shared buffers hit + read |\n|---|---|---:|---:|');
    for (const line of results) say(line);

    const oldest = await client.query(`SELECT count(*) AS rows FROM bench_plain.sessions WHERE created_at < $1::date + interval '3 months'`, [FIRST_DAY]);
    await timed(`retention: DELETE the oldest quarter (${Number(oldest.rows[0].rows).toLocaleString('en')} sessions), plain`, () =>
      client.query(`DELETE FROM bench_plain.sessions WHERE created_at < $1::date + interval '3 months'`, [FIRST_DAY]),
    );
    await timed('retention: DETACH and DROP the oldest quarter, partitioned', async () => {
      await client.query(`ALTER TABLE bench_partitioned.sessions DETACH PARTITION bench_partitioned.sessions_p2022q1`);
      await client.query('DROP TABLE bench_partitioned.sessions_p2022q1');
    });
    say('\n| step | ms |\n|---|---:|');
    for (const [label, ms] of timings) say(`| ${label} | ${ms.toLocaleString('en')} |`);
  } finally {
    await client.end();
  }
}

async function createSchemas(client: Client): Promise<void> {
  await client.query('DROP SCHEMA IF EXISTS bench_plain CASCADE; DROP SCHEMA IF EXISTS bench_partitioned CASCADE');
  await client.query('CREATE SCHEMA bench_plain; CREATE SCHEMA bench_partitioned');
  for (const schema of ['bench_plain', 'bench_partitioned']) {
    await client.query(`CREATE TABLE ${schema}.session_summaries (LIKE public.session_summaries INCLUDING ALL)`);
    await client.query(`CREATE TABLE ${schema}.contact_session_counts (LIKE public.contact_session_counts INCLUDING ALL)`);
  }
  await client.query('CREATE TABLE bench_plain.sessions (LIKE public.sessions INCLUDING DEFAULTS)');
  await client.query('CREATE TABLE bench_plain.messages (LIKE public.messages INCLUDING DEFAULTS)');
  await client.query('CREATE TABLE bench_partitioned.sessions (LIKE public.sessions INCLUDING DEFAULTS) PARTITION BY RANGE (created_at)');
  await client.query('CREATE TABLE bench_partitioned.messages (LIKE public.messages INCLUDING DEFAULTS) PARTITION BY RANGE (created_at)');
  for (let quarter = 0; quarter < YEARS * 4; quarter += 1) {
    const year = 2022 + Math.floor(quarter / 4);
    const from = `${year}-${String((quarter % 4) * 3 + 1).padStart(2, '0')}-01`;
    await client.query(`CREATE TABLE bench_partitioned.sessions_p${year}q${(quarter % 4) + 1} PARTITION OF bench_partitioned.sessions
                        FOR VALUES FROM ('${from}') TO ('${from}'::date + interval '3 months')`);
  }
  for (let month = 0; month < YEARS * 12; month += 1) {
    const year = 2022 + Math.floor(month / 12);
    const from = `${year}-${String((month % 12) + 1).padStart(2, '0')}-01`;
    await client.query(`CREATE TABLE bench_partitioned.messages_p${year}m${String((month % 12) + 1).padStart(2, '0')} PARTITION OF bench_partitioned.messages
                        FOR VALUES FROM ('${from}') TO ('${from}'::date + interval '1 month')`);
  }
}

/** Sessions spread evenly over the five years (newest last); every TARGET_EVERY-th is the target contact's. */
async function loadPlain(client: Client): Promise<void> {
  const spanSeconds = YEARS * 365 * 86_400;
  await client.query(
    `INSERT INTO bench_plain.sessions (id, tenant_id, contact_id, inbox_id, operator_id, operator_participants_ids, channel, type, active, listed,
                                       last_message_id, last_activity_at, created_at, updated_at, closed_at)
     SELECT gen_random_uuid(), $1,
            CASE WHEN g % $3 = 1 THEN $2::uuid ELSE md5('c' || (g % $4))::uuid END,
            $1, md5('o' || (g % $5))::uuid,
            CASE WHEN g % 7 = 0 THEN ARRAY[md5('o' || (g % 11))::uuid] ELSE '{}'::uuid[] END,
            'whatsapp', 'chat', false, g % 10 <> 0,
            CASE WHEN g % $6 = 0 OR g % $3 = 1 THEN gen_random_uuid() END,
            at + interval '1 hour', at, at + interval '1 hour', at + interval '1 hour'
       FROM generate_series(1, $7) g,
            LATERAL (SELECT $8::timestamptz + (g::float8 * $9 / $7) * interval '1 second' AS at) t`,
    [TENANT, TARGET_CONTACT, TARGET_EVERY, CONTACTS, OPERATORS, MESSAGE_EVERY, SESSIONS, `${FIRST_DAY} 00:00:00Z`, spanSeconds],
  );
  await client.query(
    `INSERT INTO bench_plain.messages (id, tenant_id, session_id, direction, key, status, value, created_at, updated_at)
     SELECT last_message_id, tenant_id, id, 'inbound', 'text', 2, to_jsonb('Mensagem'::text), last_activity_at, last_activity_at
       FROM bench_plain.sessions WHERE last_message_id IS NOT NULL`,
  );
}

/** The real tables' indexes; a partitioned table's primary key must hold its partition key. */
async function createIndexes(client: Client, schema: string): Promise<void> {
  const key = schema === 'bench_partitioned' ? '(id, created_at)' : '(id)';
  await client.query(`ALTER TABLE ${schema}.sessions ADD PRIMARY KEY ${key}`);
  await client.query(`CREATE INDEX ON ${schema}.sessions (tenant_id, contact_id, last_activity_at DESC, id DESC) INCLUDE (listed, operator_id, operator_participants_ids)`);
  await client.query(`CREATE INDEX ON ${schema}.sessions (tenant_id, contact_id) INCLUDE (operator_id, operator_participants_ids) WHERE NOT listed`);
  await client.query(`ALTER TABLE ${schema}.messages ADD PRIMARY KEY ${key}`);
  await client.query(`CREATE INDEX ON ${schema}.messages (session_id, created_at, id)`);
}

interface Explained {
  text: string;
  executionMs: number;
  buffers: number;
}

/** Operation 11 as services-api runs it, for the viewer operator; every statement EXPLAINed with its parameters. */
async function explainOperation11(pool: Pool, page: number): Promise<Explained[]> {
  const recorded: { sql: string; parameters: unknown[] }[] = [];
  const dataSource = {
    query: async (sql: string, parameters: unknown[] = []) => {
      recorded.push({ sql, parameters });
      return (await pool.query(sql, parameters)).rows;
    },
  } as unknown as DataSource;
  await new ListContactSessionsUseCase(passedAccessCheck, new ContactSessionsRepository(dataSource)).execute({
    principal: { kind: 'operator', operatorID: VIEWER },
    tenantID: TENANT,
    contactID: TARGET_CONTACT,
    page: { page, perPage: PER_PAGE },
  });
  const plans: Explained[] = [];
  for (const statement of recorded) plans.push(await explainText(pool, statement.sql, statement.parameters));
  return plans;
}

async function explainText(pool: Pool, sql: string, parameters: unknown[]): Promise<Explained> {
  await pool.query(sql, parameters); // warm: the figures are of a cached working set, as in production
  const result = await pool.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, parameters);
  const lines: string[] = result.rows.map((row: Record<string, string>) => row['QUERY PLAN']);
  const execution = lines.find((line) => line.startsWith('Execution Time'));
  const top = lines.find((line) => line.includes('Buffers:')) ?? '';
  const buffers = [...top.matchAll(/(?:hit|read)=(\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
  return { text: lines.join('\n'), executionMs: Number(execution?.match(/([\d.]+) ms/)?.[1] ?? 0), buffers };
}
