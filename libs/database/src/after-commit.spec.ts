import type { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { afterCommit, runTransaction } from './after-commit';
import type { SqlRunner } from './typed-sql';

/** A DataSource whose every transaction runs on a runner of its own: committed when the work resolves, rolled back when it throws. */
const dataSource = { transaction: (work: (manager: SqlRunner) => Promise<unknown>) => work({ query: async () => [] }) } as unknown as DataSource;

describe('afterCommit', () => {
  it('runs each key once, after the work resolved, in the order registered', async () => {
    const ran: string[] = [];
    const answer = await runTransaction(dataSource, async (runner) => {
      afterCommit(runner, 'a', () => ran.push('a'));
      afterCommit(runner, 'b', () => ran.push('b'));
      afterCommit(runner, 'a', () => ran.push('a again'));
      expect(ran).toEqual([]);
      return 'committed';
    });
    expect(answer).toBe('committed');
    expect(ran).toEqual(['a', 'b']);
  });

  it('runs nothing when the transaction rolls back', async () => {
    const ran: string[] = [];
    const work = runTransaction(dataSource, async (runner) => {
      afterCommit(runner, 'a', () => ran.push('a'));
      throw new Error('refused');
    });
    await expect(work).rejects.toThrow('refused');
    expect(ran).toEqual([]);
  });

  it('drops a hook outside a transaction it opened, and one registered once the transaction is over', async () => {
    const ran: string[] = [];
    afterCommit({ query: async () => [] }, 'a', () => ran.push('outside'));
    let finished: SqlRunner | undefined;
    await runTransaction(dataSource, async (runner) => {
      finished = runner;
    });
    afterCommit(finished!, 'a', () => ran.push('late'));
    await runTransaction(dataSource, async () => undefined);
    expect(ran).toEqual([]);
  });

  it('answers the committed work even when a hook throws, and runs the hooks after it', async () => {
    const ran: string[] = [];
    const answer = await runTransaction(dataSource, async (runner) => {
      afterCommit(runner, 'a', () => {
        throw new Error('hook failed');
      });
      afterCommit(runner, 'b', () => ran.push('b'));
      return 'committed';
    });
    expect(answer).toBe('committed');
    expect(ran).toEqual(['b']);
  });
});
