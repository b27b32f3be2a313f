import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { firstRow, rows, sql } from '@platform/database';
import { DataSource } from 'typeorm';

/** A tenant the operator belongs to, with the operator's role in it. */
export interface OperatorTenantRow {
  tenantID: string;
  tenantName: string;
  role: 'owner' | 'member';
}

export interface TenantDetailsRow {
  tenantID: string;
  tenantName: string;
  createdAt: Date;
}

/** Every tenant the operator belongs to, by name then id (a total order). */
const TENANTS_OF_OPERATOR = sql<OperatorTenantRow, [operatorID: string]>(
  `SELECT t.id AS "tenantID", t.name AS "tenantName", m.role
         FROM memberships m
         JOIN tenants t ON t.id = m.tenant_id
        WHERE m.operator_id = $1
        ORDER BY t.name, t.id`,
);

const TENANT_DETAILS = sql<TenantDetailsRow, [tenantID: string]>(
  `SELECT id AS "tenantID", name AS "tenantName", created_at AS "createdAt" FROM tenants WHERE id = $1`,
);

@Injectable()
export class TenantsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The operator's own memberships: read for the operator, not within one tenant, so no scope. */
  async listForOperator(operatorID: string): Promise<OperatorTenantRow[]> {
    return rows(this.dataSource, TENANTS_OF_OPERATOR, [operatorID]);
  }

  async findDetails(scope: TenantScope): Promise<TenantDetailsRow | undefined> {
    return firstRow(this.dataSource, TENANT_DETAILS, [scope.tenantID]);
  }
}
