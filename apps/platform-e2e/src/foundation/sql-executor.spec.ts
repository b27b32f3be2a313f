import { firstRow, rows, run, runTransaction, sql } from '@platform/database';
import { createTestDataSource } from '@platform/testing';
import { DataSource, QueryFailedError } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const INSERT = sql<{ id: number }, [id: number, label: string]>('INSERT INTO sql_executor_spec (id, label) VALUES ($1, $2) RETURNING id');
const LABEL = sql<{ label: string }, [id: number]>('SELECT label FROM sql_executor_spec WHERE id = $1');
const RELABEL = sql<{ id: number }, [label: string, from: number]>('UPDATE sql_executor_spec SET label = $1 WHERE id >= $2');
const BACKEND = sql<{ pid: number }>('SELECT pg_backend_pid() AS pid');

/**
 * Typed statements run on pg directly (libs/database/src/sql-executor.ts), answered as
 * TypeORM answered them: on the DataSource each on a pooled connection, in a
 * transaction on the transaction's own connection, whoever opened it.
 */
describe('typed statements on the pg pool and on a transaction’s connection', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    await dataSource.query('CREATE TABLE IF NOT EXISTS sql_executor_spec (id int PRIMARY KEY, label text NOT NULL)');
    await dataSource.query('TRUNCATE sql_executor_spec');
  });
  afterAll(() => close?.());

  it('answers rows, and counts what an UPDATE touched, as TypeORM does', async () => {
    expect(await rows(dataSource, INSERT, [1, 'one'])).toEqual([{ id: 1 }]);
    await rows(dataSource, INSERT, [2, 'two']);
    expect(await firstRow(dataSource, LABEL, [2])).toEqual({ label: 'two' });
    expect(await firstRow(dataSource, LABEL, [99])).toBeUndefined();
    expect(await run(dataSource, RELABEL, ['again', 1])).toEqual({ rows: [], count: 2 });
    expect(await dataSource.query(RELABEL.text, ['again', 1])).toEqual([[], 2]);
  });

  it('runs a transaction’s statements on its connection: they commit together or not at all', async () => {
    const seen = await runTransaction(dataSource, async (runner) => {
      await rows(runner, INSERT, [10, 'ten']);
      return { inside: await firstRow(runner, LABEL, [10]), outside: await firstRow(dataSource, LABEL, [10]) };
    });
    expect(seen).toEqual({ inside: { label: 'ten' }, outside: undefined });
    expect(await firstRow(dataSource, LABEL, [10])).toEqual({ label: 'ten' });

    const refused = runTransaction(dataSource, async (runner) => {
      await rows(runner, INSERT, [11, 'eleven']);
      throw new Error('refused');
    });
    await expect(refused).rejects.toThrow('refused');
    expect(await firstRow(dataSource, LABEL, [11])).toBeUndefined();
  });

  it('uses the connection TypeORM holds for a transaction it opened itself', async () => {
    await dataSource.transaction(async (manager) => {
      const [typed, typeorm] = [await firstRow(manager, BACKEND, []), (await manager.query(BACKEND.text)) as { pid: number }[]];
      expect(typed).toEqual(typeorm[0]);
    });
  });

  it('refuses what PostgreSQL refuses with TypeORM’s QueryFailedError, and leaves the pool usable', async () => {
    const duplicate = rows(dataSource, INSERT, [1, 'one again']);
    await expect(duplicate).rejects.toBeInstanceOf(QueryFailedError);
    await expect(duplicate).rejects.toMatchObject({ code: '23505', query: INSERT.text, parameters: [1, 'one again'] });
    const inTransaction = runTransaction(dataSource, (runner) => rows(runner, INSERT, [1, 'one again']));
    await expect(inTransaction).rejects.toBeInstanceOf(QueryFailedError);
    expect(await firstRow(dataSource, LABEL, [1])).toEqual({ label: 'again' });
  });

  it('answers a released transaction’s runner with TypeORM’s own error', async () => {
    let finished: Parameters<Parameters<typeof runTransaction>[1]>[0] | undefined;
    await runTransaction(dataSource, async (runner) => {
      finished = runner;
    });
    await expect(firstRow(finished!, LABEL, [1])).rejects.toThrow(/released/i);
  });
});
