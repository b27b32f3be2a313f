import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OperatorTenant, TenantDetails } from './tenant.dto';

@Injectable()
export class TenantsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Every tenant the operator belongs to, by name then id (a total order). */
  async listForOperator(operatorID: string): Promise<OperatorTenant[]> {
    return this.dataSource.query(
      `SELECT t.id AS "tenantID", t.name AS "tenantName", m.role
         FROM memberships m
         JOIN tenants t ON t.id = m.tenant_id
        WHERE m.operator_id = $1
        ORDER BY t.name, t.id`,
      [operatorID],
    );
  }

  async findDetails(tenantID: string): Promise<TenantDetails | undefined> {
    const rows: { tenantID: string; tenantName: string; createdAt: Date }[] = await this.dataSource.query(
      `SELECT id AS "tenantID", name AS "tenantName", created_at AS "createdAt" FROM tenants WHERE id = $1`,
      [tenantID],
    );
    return rows[0] && { ...rows[0], createdAt: rows[0].createdAt.toISOString() };
  }
}
