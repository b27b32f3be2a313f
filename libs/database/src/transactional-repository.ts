import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { SqlRunner } from './typed-sql';

/**
 * A repository whose writes may need to commit together. `transaction` runs
 * `work` in one transaction; `runner` is what the repository's other methods
 * take to join it, so every statement given the runner commits together or
 * not at all.
 */
@Injectable()
export abstract class TransactionalRepository {
  constructor(protected readonly dataSource: DataSource) {}

  transaction<T>(work: (runner: SqlRunner) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(manager));
  }
}
