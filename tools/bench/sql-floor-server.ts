import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { Pool, PoolClient } from 'pg';
import type { CapturedStatement } from './sql-capture';

/**
 * An operation's floor: bare Fastify and pg (a pool of 10 connections, as the
 * bench's load has 10) sending the very statements one request of the
 * operation sent (captured by sql-capture.ts: same text, same parameters, same
 * page and count), in the same order and the same transactions, and answering
 * a JSON body of the operation's size built from the rows. No framework,
 * validation, auth, logging or metrics: what any server answering that request
 * from that SQL pays at least.
 *
 * BENCH_FLOOR_FILE holds the operations, by name: `GET /floor/<name>` replays one.
 */
export interface FloorOperation {
  statements: CapturedStatement[];
  /** Length of the operation's JSON body; the floor's answer is padded up to it. */
  bodyBytes: number;
}

type Parameter = string | Buffer | null;

const wireValue = (value: CapturedStatement['values'][number]): Parameter =>
  value !== null && typeof value === 'object' ? Buffer.from(value.base64, 'base64') : value;

/** Statements in a row on one connection run on one checked-out client (a transaction stays whole); a lone one goes through pool.query, as TypeORM's DataSource.query does. */
function runsOf(statements: CapturedStatement[]): { statements: { text: string; values: Parameter[] }[] }[] {
  const runs: { connection: number; statements: { text: string; values: Parameter[] }[] }[] = [];
  for (const statement of statements) {
    const last = runs[runs.length - 1];
    const replayed = { text: statement.text, values: statement.values.map(wireValue) };
    if (last && last.connection === statement.connection) last.statements.push(replayed);
    else runs.push({ connection: statement.connection, statements: [replayed] });
  }
  return runs;
}

async function main(): Promise<void> {
  const operations = JSON.parse(readFileSync(process.env.BENCH_FLOOR_FILE as string, 'utf8')) as Record<string, FloorOperation>;
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  const app = Fastify({ logger: false });
  const replays = new Map(Object.entries(operations).map(([name, operation]) => [name, { runs: runsOf(operation.statements), bodyBytes: operation.bodyBytes, padding: '' }]));

  app.get<{ Params: { name: string } }>('/floor/:name', async (request, reply) => {
    const replay = replays.get(request.params.name);
    if (!replay) return reply.code(404).send({ error: 'no such floor' });
    const data: unknown[][] = [];
    for (const run of replay.runs) {
      if (run.statements.length === 1) {
        data.push((await pool.query(run.statements[0])).rows);
        continue;
      }
      const client: PoolClient = await pool.connect();
      try {
        for (const statement of run.statements) data.push((await client.query(statement)).rows);
      } finally {
        client.release();
      }
    }
    let body = JSON.stringify({ data, padding: replay.padding });
    // The first answer sets the padding that brings the body to the operation's size.
    if (!replay.padding && body.length < replay.bodyBytes) {
      replay.padding = 'x'.repeat(replay.bodyBytes - body.length);
      body = JSON.stringify({ data, padding: replay.padding });
    }
    return reply.type('application/json; charset=utf-8').send(body);
  });
  app.get('/hello', async () => ({ hello: 'world' }));
  await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
}

void main();
