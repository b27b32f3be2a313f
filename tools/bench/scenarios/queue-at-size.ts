import { InboxSessionsRepository } from '@apps/services-api';
import { trustedTenantScope } from '@platform/auth';
import { Client, Pool } from 'pg';
import { BenchContext } from '../context';
import { answeringStatement, explainStatement, ms, recordingDataSource, timeCalls } from '../statement-timing';

/** The queue read: an inbox with OPEN open sessions and CLOSED closed ones before them, beside four other inboxes as large. */
const OPEN = Number(process.env.BENCH_QUEUE_OPEN ?? 10_000);
const CLOSED = Number(process.env.BENCH_QUEUE_CLOSED ?? 90_000);
const REPEATS = Number(process.env.BENCH_QUEUE_REPEATS ?? 50);
const INBOXES = 5;
const OPERATORS = 50;
/** The route's default page and the one more the use case reads to know whether another page follows. */
const PAGE = 50;

const TENANT = '00000000-0000-4000-8000-00000000a0a0';
const CONNECTION = '00000000-0000-4000-8000-00000000c0c0';
const VIEWER = operatorID(0);
function operatorID(index: number): string {
  return `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
}
function inboxID(index: number): string {
  return `00000000-0000-4000-8000-0000000b${String(index).padStart(4, '0')}`;
}

const say = (text: string) => process.stdout.write(`${text}\n`);

/**
 * The inbox queue at size (GET .../inboxes/{inboxID}/sessions, services-api's
 * InboxSessionsRepository unchanged, on a recording connection): the first
 * page and a deep page (after 9,950 sessions, by its keyset cursor) of an
 * inbox with 10,000 open sessions over 90,000 closed ones, for an operator
 * and for the inbox's plugin connection, with and without the `open` state
 * and the `mine` assignee, and the queue's counts: p50/p95 and the backend's
 * CPU over BENCH_QUEUE_REPEATS runs, and each plan.
 */
export async function queueAtSize(context: BenchContext): Promise<void> {
  const client = new Client({ connectionString: context.databaseUrl });
  await client.connect();
  const pool = new Pool({ connectionString: context.databaseUrl, max: 1 });
  try {
    const started = performance.now();
    await load(client);
    say(`\nloaded ${INBOXES} inboxes of ${(OPEN + CLOSED).toLocaleString('en')} sessions each (the measured one: ${OPEN.toLocaleString('en')} open) in ${Math.round(performance.now() - started).toLocaleString('en')} ms`);

    const deep = async (open: boolean) =>
      (await client.query(
        `SELECT to_char(GREATEST(last_activity_at, updated_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at, id FROM sessions
          WHERE tenant_id = $1 AND inbox_id = $2 ${open ? 'AND closed_at IS NULL' : ''}
          ORDER BY GREATEST(last_activity_at, updated_at) DESC, id DESC OFFSET $3 LIMIT 1`,
        [TENANT, inboxID(0), OPEN - PAGE],
      )).rows[0] as { at: string; id: string };
    const deepAny = await deep(false);
    const deepOpen = await deep(true);

    const { dataSource, recorded } = recordingDataSource(pool);
    const repository = new InboxSessionsRepository(dataSource);
    const scope = trustedTenantScope(TENANT);
    const operator = { kind: 'operator', operatorID: VIEWER } as const;
    const connection = { kind: 'pluginConnection', pluginConnectionID: CONNECTION } as const;
    const cases: { label: string; run: () => Promise<unknown[] | object> }[] = [
      { label: 'operator, no filter, first page', run: () => repository.page(scope, inboxID(0), operator, {}, undefined, PAGE + 1) },
      { label: `operator, no filter, page after ${(OPEN - PAGE).toLocaleString('en')}`, run: () => repository.page(scope, inboxID(0), operator, {}, deepAny, PAGE + 1) },
      { label: 'operator, state=open, first page', run: () => repository.page(scope, inboxID(0), operator, { state: 'open' }, undefined, PAGE + 1) },
      { label: `operator, state=open, page after ${(OPEN - PAGE).toLocaleString('en')}`, run: () => repository.page(scope, inboxID(0), operator, { state: 'open' }, deepOpen, PAGE + 1) },
      { label: 'operator, state=queued, first page', run: () => repository.page(scope, inboxID(0), operator, { state: 'queued' }, undefined, PAGE + 1) },
      { label: 'operator, state=open assignee=mine, first page', run: () => repository.page(scope, inboxID(0), operator, { state: 'open', assignee: { kind: 'operator', operatorID: VIEWER } }, undefined, PAGE + 1) },
      { label: 'operator, state=closed, first page', run: () => repository.page(scope, inboxID(0), operator, { state: 'closed' }, undefined, PAGE + 1) },
      { label: 'plugin connection, state=open, first page', run: () => repository.page(scope, inboxID(0), connection, { state: 'open' }, undefined, PAGE + 1) },
      { label: `plugin connection, state=open, page after ${(OPEN - PAGE).toLocaleString('en')}`, run: () => repository.page(scope, inboxID(0), connection, { state: 'open' }, deepOpen, PAGE + 1) },
      { label: 'counts, operator', run: () => repository.counts(scope, inboxID(0), operator) },
    ];
    const lines: string[] = [];
    for (const { label, run } of cases) {
      const timing = await timeCalls(pool, run, REPEATS);
      recorded.length = 0;
      const answer = await run();
      const plan = await explainStatement(pool, answeringStatement(recorded).statement);
      say(`\n#### plan: ${label}\n\`\`\`\n${plan.text}\n\`\`\``);
      const rows = Array.isArray(answer) ? answer.length : 1;
      lines.push(`| ${label} | ${ms(timing.p50)} | ${ms(timing.p95)} | ${ms(timing.serverCpu)} | ${ms(plan.executionMs)} | ${plan.buffers.toLocaleString('en')} | ${rows} |`);
    }
    say('\n| queue read | p50 ms | p95 ms | server CPU ms | EXPLAIN ms | buffers | rows |\n|---|---:|---:|---:|---:|---:|---:|');
    for (const line of lines) say(line);
  } finally {
    await pool.end();
    await client.end();
  }
}

/**
 * One tenant, INBOXES inboxes (the first the plugin connection's) of CLOSED
 * closed sessions then OPEN open ones each, one message per session (the
 * insert's trigger names it the session's last); 90% listed, assigned
 * round-robin to OPERATORS operators, a third of the open ones queued.
 */
async function load(client: Client): Promise<void> {
  await client.query(`INSERT INTO tenants (id, name) VALUES ($1, 'bench queue')`, [TENANT]);
  await client.query(
    `INSERT INTO operators (id, email, firstname, password_hash)
     SELECT ('00000000-0000-4000-8000-' || lpad(g::text, 12, '0'))::uuid, 'bench-queue-' || g || '@bench.example', 'Operador ' || g, 'not-a-password-hash'
       FROM generate_series(0, $1 - 1) g`,
    [OPERATORS],
  );
  await client.query(
    `INSERT INTO inboxes (id, tenant_id, name, channel, plugin_connection_id)
     SELECT ('00000000-0000-4000-8000-0000000b' || lpad(g::text, 4, '0'))::uuid, $1, 'Inbox ' || g, 'whatsapp', CASE WHEN g = 0 THEN $3::uuid END
       FROM generate_series(0, $2 - 1) g`,
    [TENANT, INBOXES, CONNECTION],
  );
  await client.query(
    `INSERT INTO contacts (id, tenant_id, name) SELECT md5('queue:c:' || g)::uuid, $1, 'Contato ' || g FROM generate_series(1, $2) g`,
    [TENANT, ((OPEN + CLOSED) * INBOXES) / 2],
  );
  // Per inbox, session g of OPEN + CLOSED: the first CLOSED closed, the rest open, a minute apart, oldest first.
  await client.query(
    `INSERT INTO sessions (id, tenant_id, contact_id, inbox_id, operator_id, operator_participants_ids, channel, type, active, listed,
                           last_activity_at, created_at, updated_at, closed_at)
     SELECT md5('queue:s:' || i || ':' || g)::uuid, $1, md5('queue:c:' || (1 + (i * ($2::int + $3::int) + g) % (($2::int + $3::int) * $4::int / 2)))::uuid,
            ('00000000-0000-4000-8000-0000000b' || lpad(i::text, 4, '0'))::uuid,
            CASE WHEN g > $3::int AND g % 3 = 0 THEN NULL ELSE ('00000000-0000-4000-8000-' || lpad((g % $5::int)::text, 12, '0'))::uuid END,
            CASE WHEN g % 7 = 0 THEN ARRAY[('00000000-0000-4000-8000-' || lpad(((g / 7) % $5::int)::text, 12, '0'))::uuid] ELSE '{}'::uuid[] END,
            'whatsapp', 'chat', g > $3::int, g % 10 <> 0, at, at - interval '5 minutes', at, CASE WHEN g <= $3::int THEN at END
       FROM generate_series(0, $4::int - 1) i, generate_series(1, $2::int + $3::int) g,
            LATERAL (SELECT timestamptz '2026-01-01 00:00:00Z' + g * interval '1 minute' + i * interval '1 second' AS at) a`,
    [TENANT, OPEN, CLOSED, INBOXES, OPERATORS],
  );
  await client.query(
    `INSERT INTO messages (tenant_id, session_id, inbox_id, direction, key, status, value, created_at, updated_at)
     SELECT tenant_id, id, inbox_id, 'inbound', 'text', 2, to_jsonb('Olá, preciso de ajuda'::text), last_activity_at, last_activity_at
       FROM sessions WHERE tenant_id = $1`,
    [TENANT],
  );
  await client.query('VACUUM ANALYZE sessions, messages, contacts, inboxes');
}
