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
import { executorOf } from './sql-executor';
import type { SqlResult, SqlRunner } from './sql-executor';

export type { SqlResult, SqlRunner } from './sql-executor';

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

/** Runs a statement and returns its rows and how many rows it touched. */
export async function run<Row, Params extends readonly unknown[]>(runner: SqlRunner, statement: Sql<Row, Params>, parameters: Params): Promise<SqlResult<Row>> {
  return (await executorOf(runner).execute(statement.text, parameters as unknown as unknown[])) as SqlResult<Row>;
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
