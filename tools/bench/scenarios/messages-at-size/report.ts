import { ContactSessionsRepository, InboxSessionsRepository, ListContactSessionsUseCase, MessagesRepository, PostgresSearch, SessionsRepository } from '@apps/services-api';
import { trustedTenantScope } from '@platform/auth';
import { Client, Pool } from 'pg';
import { DataSource } from 'typeorm';
import { LoadResult } from '../../harness';
import { passedAccessCheck } from '../../passed-access-check';
import { answeringStatement, ExplainedStatement, explainStatement, ms, recordingDataSource, RecordedStatement } from '../../statement-timing';
import type { RetentionRun } from './load';
import { TARGET_CONTACT, VIEWER } from './seed';
import type { SeededData } from './seed';

const say = (text: string) => process.stdout.write(`${text}\n`);
/** A retention batch EXPLAINed longer than this is cancelled and reported as such. */
const EXPLAIN_TIMEOUT_SECONDS = Number(process.env.BENCH_MESSAGES_EXPLAIN_TIMEOUT_SECONDS ?? 300);

/** The conversation tables, their own size (heap + TOAST) and each index's. */
const TABLES = ['messages', 'sessions', 'contacts', 'contact_session_counts', 'inboxes', 'webhook_events', 'outbox_pending'];

export async function reportSizes(client: Client): Promise<void> {
  const tables = await client.query(
    `SELECT c.relname AS name, c.reltuples::bigint AS rows, pg_total_relation_size(c.oid) AS total, pg_table_size(c.oid) AS heap, pg_indexes_size(c.oid) AS indexes
       FROM pg_class c WHERE c.relname = ANY ($1) AND c.relkind = 'r' ORDER BY total DESC`,
    [TABLES],
  );
  say('\n| table | rows (estimate) | total MiB | table (heap + TOAST) MiB | indexes MiB |\n|---|---:|---:|---:|---:|');
  for (const row of tables.rows) say(`| ${row.name} | ${Number(row.rows).toLocaleString('en')} | ${mib(row.total)} | ${mib(row.heap)} | ${mib(row.indexes)} |`);
  const indexes = await client.query(
    `SELECT t.relname AS "table", i.relname AS name, pg_relation_size(i.oid) AS bytes
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
      WHERE t.relname = ANY ($1) ORDER BY bytes DESC`,
    [TABLES],
  );
  say('\n| index | table | MiB |\n|---|---|---:|');
  for (const row of indexes.rows) say(`| ${row.name} | ${row.table} | ${mib(row.bytes)} |`);
}

function mib(bytes: string | number): string {
  return (Number(bytes) / 2 ** 20).toLocaleString('en', { maximumFractionDigits: 1 });
}

/** EXPLAIN (ANALYZE, BUFFERS) of the statements behind each measured read, as services-api's repositories send them, and of one retention batch. */
export async function explainKeyStatements(pool: Pool, data: SeededData): Promise<void> {
  const { dataSource, recorded } = recordingDataSource(pool);
  const scope = trustedTenantScope(data.bigTenantID);
  const operator = { kind: 'operator', operatorID: VIEWER } as const;
  const messages = new MessagesRepository(dataSource);
  const firstPage = await messages.page(scope, data.longSessionID, undefined, 51);
  const deepAt = await pool.query(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at, id FROM messages WHERE session_id = $1 ORDER BY created_at DESC, id DESC OFFSET 4500 LIMIT 1`,
    [data.longSessionID],
  );
  const contactSessions = new ListContactSessionsUseCase(passedAccessCheck, new ContactSessionsRepository(dataSource));
  const cases: { label: string; run: () => Promise<unknown> }[] = [
    { label: 'session messages, first page', run: () => messages.page(scope, data.longSessionID, undefined, 51) },
    { label: 'session messages, page after 4,500', run: () => messages.page(scope, data.longSessionID, { createdAt: deepAt.rows[0].at, messageID: deepAt.rows[0].id }, 51) },
    { label: 'op 11, page 1', run: () => contactSessions.execute({ principal: operator, tenantID: data.bigTenantID, contactID: TARGET_CONTACT, page: { page: 1, perPage: 50 } }) },
    { label: 'inbox queue, first page', run: () => new InboxSessionsRepository(dataSource).page(scope, data.inboxID, operator, {}, undefined, 51) },
    { label: 'search "boleto"', run: () => new PostgresSearch(dataSource).messages({ scope, visibility: operator, text: 'boleto', after: undefined, limit: 21 }) },
  ];
  if (firstPage.length === 0) throw new Error('the long session has no messages');
  const lines: string[] = [];
  for (const { label, run } of cases) {
    await run(); // warm: a cached working set, as in production
    recorded.length = 0;
    await run();
    const answering = answeringStatement(recorded);
    const plan = await explainStatement(pool, answering.statement, answering.settings);
    say(`\n#### plan: ${label}\n\`\`\`\n${plan.text}\n\`\`\``);
    lines.push(`| ${label} | ${ms(plan.executionMs)} | ${plan.buffers.toLocaleString('en')} |`);
  }
  const retention = await explainRolledBack(pool, (recorder) => new SessionsRepository(recorder).deleteClosedBefore(new Date(), 200));
  say(`\n#### plan: one retention batch (200 sessions with their messages), rolled back\n\`\`\`\n${retention.text}\n\`\`\``);
  lines.push(`| one retention batch (200 sessions), rolled back | ${ms(retention.executionMs)} | ${retention.buffers.toLocaleString('en')} |`);
  say('\n| statement | EXPLAIN ms | buffers |\n|---|---:|---:|');
  for (const line of lines) say(line);
}

/** EXPLAIN ANALYZE of a writing statement in a transaction rolled back: the kept database keeps its rows. */
async function explainRolledBack(pool: Pool, call: (dataSource: DataSource) => Promise<unknown>): Promise<ExplainedStatement> {
  const statements: RecordedStatement[] = [];
  const recorder = { query: async (sql: string, parameters: unknown[] = []) => (statements.push({ sql, parameters }), [[], 0]) } as unknown as DataSource;
  await call(recorder);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL statement_timeout = '${EXPLAIN_TIMEOUT_SECONDS}s'`);
    const result = await client.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${statements[0].sql}`, statements[0].parameters);
    const lines: string[] = result.rows.map((row: Record<string, string>) => row['QUERY PLAN']);
    const execution = lines.find((line) => line.startsWith('Execution Time'));
    const top = lines.find((line) => line.includes('Buffers:')) ?? '';
    const buffers = [...top.matchAll(/(?:hit|read)=(\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
    return { text: lines.join('\n'), executionMs: Number(execution?.match(/([\d.]+) ms/)?.[1] ?? 0), buffers };
  } catch (error) {
    if ((error as { code?: string }).code !== '57014') throw error;
    return { text: `cancelled after ${EXPLAIN_TIMEOUT_SECONDS} s (statement_timeout)`, executionMs: EXPLAIN_TIMEOUT_SECONDS * 1000, buffers: 0 };
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

/** The reads' and the inbound post's figures, one row each. */
export function reportLoad(size: number, results: (LoadResult & { cpuMicrosecondsPerRequest?: number })[]): void {
  say(`\n| ${size.toLocaleString('en')} messages, through HTTP | req/s | p50 ms | p99 ms | non-2xx | services-api CPU µs/request |\n|---|---:|---:|---:|---:|---:|`);
  for (const r of results) say(`| ${r.name} | ${r.requestsPerSecond} | ${r.p50Ms} | ${r.p99Ms} | ${r.non2xx} | ${r.cpuMicrosecondsPerRequest ?? ''} |`);
}

export function reportRetention(run: RetentionRun): void {
  say(
    `\nretention sweep: ${run.sessions.toLocaleString('en')} sessions and ${run.messages.toLocaleString('en')} messages deleted in ${run.ms.toLocaleString('en')} ms ` +
      `(${Math.round((run.messages / run.ms) * 1000).toLocaleString('en')} messages/s, rolled back)` +
      (run.cancelled ? `; a batch was still running at ${run.ms.toLocaleString('en')} ms and was cancelled` : ''),
  );
  say('\n| read, 2 connections each, all at once | p50 ms alone | p99 ms alone | p50 ms beside the sweep | p99 ms beside the sweep |\n|---|---:|---:|---:|---:|');
  run.alone.forEach((alone, index) => say(`| ${alone.name} | ${alone.p50Ms} | ${alone.p99Ms} | ${run.beside[index].p50Ms} | ${run.beside[index].p99Ms} |`));
}
