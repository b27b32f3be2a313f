import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { runTransaction } from './after-commit';
import type { SqlRunner } from './typed-sql';

/**
 * A repository whose writes may need to commit together. `transaction` runs
 * `work` in one transaction; `runner` is what the repository's other methods
 * take to join it, so every statement given the runner commits together or
 * not at all; what a statement registered with `afterCommit` runs once the
 * transaction committed.
 */
@Injectable()
export abstract class TransactionalRepository {
  constructor(protected readonly dataSource: DataSource) {}

  transaction<T>(work: (runner: SqlRunner) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }
}
