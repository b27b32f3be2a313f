import { randomUUID } from 'node:crypto';
import { SessionsRepository } from '@apps/services-api';
import { deleteInBatches } from '@platform/database';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { CpuResult, LoadResult, measure, measureCpu } from '../../harness';
import { TARGET_CONTACT } from './seed';
import type { SeededData } from './seed';

const DURATION_SECONDS = Number(process.env.BENCH_MESSAGES_DURATION_SECONDS ?? 5);
const CONNECTIONS = 8;
/** The retention sweep's batch (ConversationRetention's), and how long the sweep runs beside the reads. */
const RETENTION_BATCH = 200;
const RETENTION_SECONDS = Number(process.env.BENCH_MESSAGES_RETENTION_SECONDS ?? 8);

/** A request the bench sends through services-api's HTTP stack. */
export interface HttpCase {
  name: string;
  path: string;
  authorization: string;
}

/** The reads measured at each size, for the viewer operator of the big tenant. */
export async function readCases(baseUrl: string, data: SeededData, operator: string): Promise<HttpCase[]> {
  const tenant = `/v1/tenants/${data.bigTenantID}`;
  const messages = `${tenant}/sessions/${data.longSessionID}/messages`;
  const deepCursor = await cursorAfterPages(`${baseUrl}${messages}?limit=100`, operator, 45);
  const contactSessions = `${tenant}/contacts/${TARGET_CONTACT}/sessions?perPage=50`;
  const listed = (await getJson(`${baseUrl}${contactSessions}`, operator)).meta.totalCount as number;
  const deepContactPage = Math.max(1, Math.ceil(listed / 50));
  return [
    { name: 'session messages, first page (50)', path: messages, authorization: operator },
    { name: 'session messages, page after 4,500 (cursor)', path: `${messages}?cursor=${encodeURIComponent(deepCursor)}`, authorization: operator },
    { name: 'op 11 (contact sessions), page 1', path: contactSessions, authorization: operator },
    { name: `op 11, last page (${deepContactPage})`, path: `${contactSessions}&page=${deepContactPage}`, authorization: operator },
    { name: 'inbox queue, first page', path: `${tenant}/inboxes/${data.inboxID}/sessions`, authorization: operator },
    { name: 'inbox queue, state=open', path: `${tenant}/inboxes/${data.inboxID}/sessions?state=open`, authorization: operator },
    { name: 'search "reembolso" (1 in 10,000)', path: `${tenant}/search/messages?q=reembolso`, authorization: operator },
    { name: 'search "boleto" (1 in 100)', path: `${tenant}/search/messages?q=boleto`, authorization: operator },
  ];
}

async function getJson(url: string, authorization: string): Promise<{ meta: Record<string, unknown> }> {
  const response = await fetch(url, { headers: { authorization } });
  if (response.status !== 200 && response.status !== 206) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { meta: Record<string, unknown> };
}

/** The cursor after `pages` pages of a keyset list, by following meta.nextCursor as a client would. */
async function cursorAfterPages(url: string, authorization: string, pages: number): Promise<string> {
  let cursor: string | undefined;
  for (let page = 0; page < pages; page += 1) {
    const next = (await getJson(cursor ? `${url}&cursor=${encodeURIComponent(cursor)}` : url, authorization)).meta.nextCursor as string | null;
    if (!next) break;
    cursor = next;
  }
  if (!cursor) throw new Error(`${url}: no second page`);
  return cursor;
}

/** Each read under load: latency percentiles and the CPU services-api spent per request (/proc/<pid>/stat). */
export async function measureReads(baseUrl: string, cases: HttpCase[], api: { pid?: number }): Promise<CpuResult[]> {
  const results: CpuResult[] = [];
  for (const read of cases) {
    results.push(
      await measureCpu({
        name: read.name,
        url: `${baseUrl}${read.path}`,
        headers: { authorization: read.authorization },
        durationSeconds: DURATION_SECONDS,
        connections: CONNECTIONS,
        servers: [api as never],
        warmUp: 200,
      }),
    );
  }
  return results;
}

/** Inbound posts through HTTP, each from a new contact handle (a new contact and session) or a returning one, in the big tenant's inbox. */
export async function measureInbound(baseUrl: string, data: SeededData, pluginAuthorization: string, api: { pid?: number }): Promise<CpuResult> {
  const run = randomUUID().slice(0, 8);
  let sequence = 0;
  const body = () => {
    sequence += 1;
    return JSON.stringify({ contactHandle: `+55119${String(sequence % 400).padStart(8, '0')}`, channelMessageID: `bench.${run}.${sequence}`, content: 'Olá, meu pedido não chegou.' });
  };
  const url = `${baseUrl}/v1/tenants/${data.bigTenantID}/inboxes/${data.inboxID}/messages`;
  const headers = { authorization: pluginAuthorization, 'content-type': 'application/json' };
  const check = await fetch(url, { method: 'POST', headers, body: body() });
  if (check.status !== 201) throw new Error(`inbound post: ${check.status} ${await check.text()}`);
  return measureCpu({ name: 'inbound post', url, method: 'POST', headers, nextBody: body, durationSeconds: DURATION_SECONDS, connections: 4, servers: [api as never], warmUp: 100 });
}

export interface RetentionRun {
  sessions: number;
  messages: number;
  ms: number;
  /** A batch outlived the run (twice RETENTION_SECONDS) and was cancelled. */
  cancelled: boolean;
  /** The reads' latency beside the sweep, and the same reads alone just before. */
  alone: LoadResult[];
  beside: LoadResult[];
}

/**
 * The retention sweep (ConversationRetention's statement, SessionsRepository,
 * batches of 200, oldest closed first) run for RETENTION_SECONDS on a backlog
 * (every closed session expired), in one transaction rolled back at the end
 * so the kept database keeps its rows; the reads run alone, then beside it.
 */
export async function measureRetention(databaseUrl: string, baseUrl: string, cases: HttpCase[]): Promise<RetentionRun> {
  const reads = () =>
    Promise.all(
      cases.map((read) =>
        measure({ name: read.name, url: `${baseUrl}${read.path}`, headers: { authorization: read.authorization }, durationSeconds: RETENTION_SECONDS, connections: 2 }),
      ),
    );
  const alone = await reads();
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL statement_timeout = '${RETENTION_SECONDS * 2}s'`);
    const dataSource = {
      query: async (sql: string, parameters: unknown[] = []) => {
        const result = await client.query(sql, parameters);
        return result.command === 'DELETE' ? [result.rows, result.rowCount ?? 0] : result.rows;
      },
    } as unknown as DataSource;
    const repository = new SessionsRepository(dataSource);
    const deadline = performance.now() + RETENTION_SECONDS * 1000;
    const started = performance.now();
    let deleted = 0;
    const sweeping = deleteInBatches(async (limit) => {
      if (performance.now() >= deadline) return 0;
      const count = await repository.deleteClosedBefore(new Date(), limit);
      deleted += count;
      return count;
    }, RETENTION_BATCH).then(
      () => false,
      (error: { code?: string }) => {
        if (error.code === '57014') return true;
        throw error;
      },
    );
    const [beside, cancelled] = await Promise.all([reads(), sweeping]);
    const ms = Math.round(performance.now() - started);
    const messages = cancelled ? 0 : Number((await client.query(`SELECT pg_stat_get_xact_tuples_deleted('messages'::regclass) AS n`)).rows[0].n);
    await client.query('ROLLBACK');
    return { sessions: cancelled ? 0 : deleted, messages, ms, cancelled, alone, beside };
  } finally {
    await client.end();
  }
}
