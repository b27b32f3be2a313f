import { Pool, QueryResult } from 'pg';
import { DataSource } from 'typeorm';
import { cpuMicrosecondsOf } from './process-usage';

/** A statement as a repository sent it: its text and parameters. */
export interface RecordedStatement {
  sql: string;
  parameters: unknown[];
}

type Run = (sql: string, parameters: unknown[]) => Promise<QueryResult>;

/**
 * A DataSource that runs a repository's statements on a one-connection pool
 * and records them, so a benchmark times, replays and EXPLAINs exactly what
 * the repository sends (unnamed statements, as TypeORM sends them: a custom
 * plan for each run's parameters), transactions included.
 */
export function recordingDataSource(pool: Pool): { dataSource: DataSource; recorded: RecordedStatement[] } {
  const recorded: RecordedStatement[] = [];
  const runnerOn = (run: Run) => ({
    query: async (sql: string, parameters: unknown[] = []) => {
      recorded.push({ sql, parameters });
      return (await run(sql, parameters)).rows;
    },
  });
  const dataSource = {
    ...runnerOn((sql, parameters) => pool.query(sql, parameters)),
    transaction: async <T>(work: (manager: unknown) => Promise<T>): Promise<T> => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(runnerOn((sql, parameters) => client.query(sql, parameters)));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
    },
  } as unknown as DataSource;
  return { dataSource, recorded };
}

export interface Timing {
  /** Wall-clock milliseconds per call as the client saw it (loopback), median and 95th percentile. */
  p50: number;
  p95: number;
  /** CPU milliseconds the PostgreSQL backend used per call (user + system, /proc/<pid>/stat). */
  serverCpu: number;
  runs: number;
}

/**
 * Calls `call` (a repository's method on a `recordingDataSource` of `pool`)
 * `repeats` times after one warm-up call (the figures are of a cached
 * working set); `pool` holds one connection, whose backend runs on this
 * machine, so its CPU time is read from /proc. CPU time moves less than
 * wall-clock time with the machine's load; /proc counts in 10 ms ticks, so
 * it is meaningful summed over many runs only. A call whose warm-up takes
 * over a second is run three times at most.
 */
export async function timeCalls(pool: Pool, call: () => Promise<unknown>, repeats: number): Promise<Timing> {
  const backend: number = (await pool.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
  const warmUp = performance.now();
  await call();
  const runs = performance.now() - warmUp > 1000 ? Math.min(repeats, 3) : repeats;
  const wall: number[] = [];
  const cpuBefore = cpuMicrosecondsOf(backend);
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await call();
    wall.push(performance.now() - started);
  }
  const serverCpu = (cpuMicrosecondsOf(backend) - cpuBefore) / 1000 / runs;
  wall.sort((a, b) => a - b);
  const at = (quantile: number) => wall[Math.min(wall.length - 1, Math.ceil(quantile * wall.length) - 1)];
  return { p50: at(0.5), p95: at(0.95), serverCpu, runs };
}

export interface ExplainedStatement {
  text: string;
  executionMs: number;
  /** Shared buffers hit + read by the whole statement (its top node). */
  buffers: number;
}

/** EXPLAIN (ANALYZE, BUFFERS) of a statement, in a transaction under `settings` (SET LOCAL statements) if any. */
export async function explainStatement(pool: Pool, statement: RecordedStatement, settings: string[] = []): Promise<ExplainedStatement> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    for (const setting of settings) await client.query(setting);
    const result = await client.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${statement.sql}`, statement.parameters);
    await client.query('COMMIT');
    const lines: string[] = result.rows.map((row: Record<string, string>) => row['QUERY PLAN']);
    const execution = lines.find((line) => line.startsWith('Execution Time'));
    const top = lines.find((line) => line.includes('Buffers:')) ?? '';
    const buffers = [...top.matchAll(/(?:hit|read)=(\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
    return { text: lines.join('\n'), executionMs: Number(execution?.match(/([\d.]+) ms/)?.[1] ?? 0), buffers };
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/**
 * The statement that answered a call and the settings it ran under: the
 * last recorded statement that is not a SET, with the SET LOCALs sent in its
 * transaction except a statement timeout (EXPLAIN shows the whole run).
 */
export function answeringStatement(recorded: RecordedStatement[]): { statement: RecordedStatement; settings: string[] } {
  const isSetting = (statement: RecordedStatement) => /^SET /i.test(statement.sql);
  const last = recorded.map(isSetting).lastIndexOf(false);
  let first = last;
  while (first > 0 && isSetting(recorded[first - 1])) first -= 1;
  const settings = recorded.slice(first, last).map((statement) => statement.sql).filter((sql) => !/statement_timeout/i.test(sql));
  return { statement: recorded[last], settings };
}

/** Milliseconds with two decimals below 10, whole above. */
export function ms(value: number): string {
  return value < 10 ? value.toFixed(2) : value.toFixed(0);
}
