/**
 * The one port every typed statement runs through (typed-sql.ts): text and
 * parameters in, rows and the count of rows touched out, on pg directly.
 *
 * TypeORM keeps what it is for (entities, migrations, opening and ending
 * transactions); the statements themselves skip its query path. Outside a
 * transaction TypeORM makes a QueryRunner per statement, and inside one each
 * statement goes through the runner's broadcasts, logging hooks and promise
 * layers: per statement, measured against the same statement on the same
 * pooled connection, ~20 µs of CPU on the DataSource and up to ~10 µs in a
 * transaction (`npm run bench -- statement-path`), a statement itself
 * costing pg ~80-110 µs.
 *
 * The pool is TypeORM's own (`driver.master`), not a second one: one budget
 * of connections per replica (`DATABASE_POOL_SIZE`, what PgBouncer and
 * `max_connections` are sized on), one place for the connection settings
 * (statement timeout, application name), and the connection a transaction
 * holds is one of it. pg's own `query` is what OpenTelemetry's pg
 * instrumentation wraps, so statements keep their spans; each statement is
 * unnamed, as TypeORM sends it, which PgBouncer's transaction mode needs.
 */
import type { Pool, PoolClient } from 'pg';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';

/**
 * Rows and the number of rows the statement touched (`rowCount`). As TypeORM
 * reports it, that count is for UPDATE and DELETE only: an INSERT that must
 * tell whether it wrote uses RETURNING and counts its rows.
 */
export interface SqlResult<Row> {
  rows: Row[];
  count: number;
}

/** Runs one statement on PostgreSQL. */
export interface SqlExecutor {
  execute(text: string, parameters: unknown[]): Promise<SqlResult<unknown>>;
}

/** What a repository hands a statement to: the DataSource, the EntityManager of a transaction, or a test's runner. */
export interface SqlRunner {
  query(text: string, parameters?: unknown[]): Promise<unknown>;
}

/**
 * TypeORM answers an UPDATE or DELETE as `[rows, rowCount]` and anything else
 * as the rows; rows are always objects, so the two shapes cannot be confused.
 */
function resultOfTypeOrm(raw: unknown): SqlResult<unknown> {
  if (Array.isArray(raw) && raw.length === 2 && Array.isArray(raw[0]) && typeof raw[1] === 'number') {
    return { rows: raw[0] as unknown[], count: raw[1] };
  }
  const rows = Array.isArray(raw) ? (raw as unknown[]) : [];
  return { rows, count: rows.length };
}

/** The count as TypeORM reports it, so a result is the same whichever way ran it. */
function resultOfPg(raw: { command: string; rows: unknown[]; rowCount: number | null }): SqlResult<unknown> {
  const touched = raw.command === 'UPDATE' || raw.command === 'DELETE';
  return { rows: raw.rows, count: touched ? (raw.rowCount ?? 0) : raw.rows.length };
}

/** A statement on a connection already held (a transaction's): what PostgreSQL refused comes back as TypeORM's `QueryFailedError`. */
async function executeOn(client: PoolClient, text: string, parameters: unknown[]): Promise<SqlResult<unknown>> {
  try {
    return resultOfPg(await client.query(text, parameters));
  } catch (error) {
    throw new QueryFailedError(text, parameters, error as Error);
  }
}

/**
 * A statement on a connection checked out of the pool for it. A failure to
 * get a connection comes as it is; as TypeORM does, a connection that fails
 * while it runs the statement is given back to be discarded, any other kept.
 */
function poolExecutor(pool: Pool): SqlExecutor {
  return {
    async execute(text, parameters) {
      const client = await pool.connect();
      let broken: Error | undefined;
      const onError = (error: Error) => (broken = error);
      client.on('error', onError);
      try {
        return await executeOn(client, text, parameters);
      } finally {
        client.removeListener('error', onError);
        client.release(broken);
      }
    },
  };
}

/** Anything else that runs statements (a test's runner, a recording DataSource), answered as TypeORM answers. */
function runnerExecutor(runner: SqlRunner): SqlExecutor {
  return { execute: async (text, parameters) => resultOfTypeOrm(await runner.query(text, parameters)) };
}

type PostgresDriver = { master?: Pool };
type HeldConnection = { isReleased: boolean; databaseConnection?: PoolClient };

/** The executor of each DataSource, made once: a repository hands its DataSource to every statement it runs. */
const poolExecutors = new WeakMap<DataSource, SqlExecutor>();

function executorOfDataSource(dataSource: DataSource): SqlExecutor | undefined {
  const known = poolExecutors.get(dataSource);
  if (known) return known;
  const pool = (dataSource.driver as unknown as PostgresDriver).master;
  if (dataSource.options.type !== 'postgres' || !dataSource.isInitialized || !pool) return undefined;
  const executor = poolExecutor(pool);
  poolExecutors.set(dataSource, executor);
  return executor;
}

/**
 * Where `runner`'s statement runs: the DataSource's on its pool; the
 * EntityManager of a transaction on the connection the transaction holds
 * (so the statement is part of it, whoever opened it); a released or not yet
 * connected runner, and anything that is not TypeORM's, through its own
 * `query`, which answers as it always did (a released runner's error
 * included).
 */
export function executorOf(runner: SqlRunner): SqlExecutor {
  if (runner instanceof DataSource) return executorOfDataSource(runner) ?? runnerExecutor(runner);
  if (runner instanceof EntityManager && runner.connection.options.type === 'postgres') {
    const held = runner.queryRunner as unknown as HeldConnection | undefined;
    if (!held) return executorOfDataSource(runner.connection) ?? runnerExecutor(runner);
    const client = held.databaseConnection;
    if (client && !held.isReleased) return { execute: (text, parameters) => executeOn(client, text, parameters) };
  }
  return runnerExecutor(runner);
}
