import { Injectable } from '@nestjs/common';
import { firstRow, sql } from '@platform/database';
import { DataSource } from 'typeorm';

export interface OperatorCredentials {
  operatorID: string;
  passwordHash: string;
}

const BY_EMAIL = sql<{ id: string; password_hash: string }, [email: string]>('SELECT id, password_hash FROM operators WHERE email = $1');

/** What sign-in reads of an operator: no tenant's data, so no scope. */
@Injectable()
export class OperatorCredentialsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The operator with this (normalised) address, if any. */
  async findByEmail(email: string): Promise<OperatorCredentials | undefined> {
    const row = await firstRow(this.dataSource, BY_EMAIL, [email]);
    return row && { operatorID: row.id, passwordHash: row.password_hash };
  }
}
