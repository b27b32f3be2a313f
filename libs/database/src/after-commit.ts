import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { SqlRunner } from './typed-sql';

const logger = new Logger('AfterCommit');

/** The hooks of each transaction still open, by its runner (the transaction's EntityManager), each key once. */
const openTransactions = new WeakMap<SqlRunner, Map<string, () => void>>();

/**
 * Runs `work` in one transaction (the runner every TransactionalRepository
 * uses), then, once it committed, the hooks its statements registered with
 * `afterCommit`. A rollback runs none: what they would announce does not
 * exist.
 */
export async function runTransaction<T>(dataSource: DataSource, work: (runner: SqlRunner) => Promise<T>): Promise<T> {
  const hooks = new Map<string, () => void>();
  let opened: SqlRunner | undefined;
  try {
    const result = await dataSource.transaction((manager) => {
      opened = manager;
      openTransactions.set(manager, hooks);
      return work(manager);
    });
    for (const hook of hooks.values()) runHook(hook);
    return result;
  } finally {
    if (opened) openTransactions.delete(opened);
  }
}

/**
 * Has `hook` run once the transaction of `runner` committed, and not at all
 * if it rolls back. A key registers once per transaction, so a transaction
 * that appends ten events runs its hook once. Hooks are hints of what
 * committed (a nudge to a worker that also polls): outside a transaction
 * `runTransaction` opened, the hook is dropped, and the poll finds the rows.
 * A hook runs synchronously after the commit and must not wait: start what
 * it does and return.
 */
export function afterCommit(runner: SqlRunner, key: string, hook: () => void): void {
  const hooks = openTransactions.get(runner);
  if (hooks && !hooks.has(key)) hooks.set(key, hook);
}

/** The change committed: a failing hook is logged, never turned into the request's failure. */
function runHook(hook: () => void): void {
  try {
    hook();
  } catch (error) {
    logger.warn({ err: error }, 'an after-commit hook failed; the change is committed');
  }
}
