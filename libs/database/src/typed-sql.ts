/**
 * Typed SQL: how every repository writes its queries (docs/data-access.md).
 *
 * A statement is declared once, next to the repository that runs it, with the
 * row it returns and the parameters it takes. Running it checks the parameter
 * tuple against the declaration and returns typed rows, so no caller handles
 * the `any` that `DataSource.query` returns.
 *
 * Why SQL text rather than TypeORM's QueryBuilder: the list and standing
 * queries are tuned to exact plans (keyset row comparisons, collations,
 * trigram indexes, `FOR UPDATE SKIP LOCKED`, one-statement CTEs that write
 * and read), and their text is built once instead of on every request.
 */
import type { Pool } from 'pg';
import { DataSource, QueryFailedError } from 'typeorm';

declare const statementTypes: unique symbol;

/** A parameterized statement returning `Row`s and taking `Params` as `$1..$n`. */
export interface Sql<Row, Params extends readonly unknown[]> {
  readonly text: string;
  /** Carries the types only; never set at run time. */
  readonly [statementTypes]?: { row: Row; params: Params };
}

/** Declares a statement: `sql<{ id: string }, [tenantID: string]>('SELECT id FROM t WHERE tenant_id = $1')`. */
export function sql<Row, Params extends readonly unknown[] = []>(text: string): Sql<Row, Params> {
  return { text };
}

/** What runs a statement: the DataSource, or the EntityManager of a transaction. */
export interface SqlRunner {
  query(text: string, parameters?: unknown[]): Promise<unknown>;
}

/**
 * Rows and the number of rows the statement touched (`rowCount`). TypeORM
 * reports that count for UPDATE and DELETE only: an INSERT that must tell
 * whether it wrote uses RETURNING and counts its rows.
 */
export interface SqlResult<Row> {
  rows: Row[];
  count: number;
}

/**
 * TypeORM answers an UPDATE or DELETE as `[rows, rowCount]` and anything else
 * as the rows; rows are always objects, so the two shapes cannot be confused.
 */
function resultOf<Row>(raw: unknown): SqlResult<Row> {
  if (Array.isArray(raw) && raw.length === 2 && Array.isArray(raw[0]) && typeof raw[1] === 'number') {
    return { rows: raw[0] as Row[], count: raw[1] };
  }
  const rows = (Array.isArray(raw) ? raw : []) as Row[];
  return { rows, count: rows.length };
}

/**
 * A statement on the DataSource itself (outside a transaction) goes straight
 * to its pg pool, answered as TypeORM's `DataSource.query` answers: the rows,
 * `[rows, rowCount]` for UPDATE and DELETE, a `QueryFailedError` wrapping
 * what PostgreSQL refused, a failure to get a connection as it is. TypeORM
 * would make a QueryRunner per statement, with its event broadcasts and
 * several promises on the way, a measurable share of a read's CPU; it adds
 * nothing here (no logging, no subscribers, no replicas). Transactions keep
 * TypeORM's EntityManager. As TypeORM does, a connection that fails while it
 * runs the statement is given back to the pool to be discarded, any other
 * kept.
 */
async function queryPool(pool: Pool, text: string, parameters: unknown[]): Promise<unknown> {
  const connection = await pool.connect();
  let broken: Error | undefined;
  const onError = (error: Error) => (broken = error);
  connection.on('error', onError);
  try {
    const raw = await connection.query(text, parameters);
    return raw.command === 'UPDATE' || raw.command === 'DELETE' ? [raw.rows, raw.rowCount] : raw.rows;
  } catch (error) {
    throw new QueryFailedError(text, parameters, error as Error);
  } finally {
    connection.removeListener('error', onError);
    connection.release(broken);
  }
}

/** The pg pool of a connected PostgreSQL DataSource, else nothing (an EntityManager, a test's runner). */
function poolOf(runner: SqlRunner): Pool | undefined {
  if (!(runner instanceof DataSource) || runner.options.type !== 'postgres' || !runner.isInitialized) return undefined;
  return (runner.driver as unknown as { master?: Pool }).master;
}

/** Runs a statement and returns its rows and how many rows it touched. */
export async function run<Row, Params extends readonly unknown[]>(runner: SqlRunner, statement: Sql<Row, Params>, parameters: Params): Promise<SqlResult<Row>> {
  const values = parameters as unknown as unknown[];
  const pool = poolOf(runner);
  return resultOf<Row>(await (pool ? queryPool(pool, statement.text, values) : runner.query(statement.text, values)));
}

/** Runs a statement and returns its rows. */
export async function rows<Row, Params extends readonly unknown[]>(runner: SqlRunner, statement: Sql<Row, Params>, parameters: Params): Promise<Row[]> {
  return (await run(runner, statement, parameters)).rows;
}

/** Runs a statement and returns its first row, if any. */
export async function firstRow<Row, Params extends readonly unknown[]>(
  runner: SqlRunner,
  statement: Sql<Row, Params>,
  parameters: Params,
): Promise<Row | undefined> {
  return (await run(runner, statement, parameters)).rows[0];
}
