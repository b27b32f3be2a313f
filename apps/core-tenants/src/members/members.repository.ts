import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import type { Member, MemberRole } from '@platform/contracts';
import { firstRow, rows, run, sql, SqlRunner, TransactionalRepository } from '@platform/database';

interface MemberRow {
  operatorID: string;
  operatorEmail: string;
  operatorFirstname: string;
  operatorLastname: string | null;
  role: MemberRole;
  joinedAt: Date;
}

const MEMBER_COLUMNS = `m.operator_id AS "operatorID", o.email AS "operatorEmail", o.firstname AS "operatorFirstname",
       o.lastname AS "operatorLastname", m.role, m.created_at AS "joinedAt"
  FROM memberships m JOIN operators o ON o.id = m.operator_id`;

/**
 * Every change of a tenant's memberships takes this lock first, so changes of
 * one tenant run one after the other and each sees the owners the previous
 * one left. NO KEY UPDATE: rows that only reference the tenant (a new
 * membership, an invitation) are not held up by it.
 */
const LOCK_TENANT = sql<{ id: string }, [tenantID: string]>('SELECT id FROM tenants WHERE id = $1 FOR NO KEY UPDATE');

const MEMBER = sql<MemberRow, [tenantID: string, operatorID: string]>(`SELECT ${MEMBER_COLUMNS} WHERE m.tenant_id = $1 AND m.operator_id = $2`);

const OWNER_COUNT = sql<{ owners: number }, [tenantID: string]>(
  `SELECT count(*)::int AS owners FROM memberships WHERE tenant_id = $1 AND role = 'owner'`,
);

const SET_ROLE = sql<never, [tenantID: string, operatorID: string, role: MemberRole]>(
  'UPDATE memberships SET role = $3 WHERE tenant_id = $1 AND operator_id = $2',
);

const REMOVE = sql<never, [tenantID: string, operatorID: string]>('DELETE FROM memberships WHERE tenant_id = $1 AND operator_id = $2');

const COUNT = sql<{ totalCount: number }, [tenantID: string, role: MemberRole | null]>(
  `SELECT count(*)::int AS "totalCount" FROM memberships WHERE tenant_id = $1 AND ($2::text IS NULL OR role = $2::text)`,
);

// Oldest membership first; the operator id breaks ties so pages never overlap.
const PAGE = sql<MemberRow, [tenantID: string, role: MemberRole | null, limit: number, offset: number]>(
  `SELECT ${MEMBER_COLUMNS}
    WHERE m.tenant_id = $1 AND ($2::text IS NULL OR m.role = $2::text)
    ORDER BY m.created_at, m.operator_id
    LIMIT $3 OFFSET $4`,
);

function toMember(row: MemberRow): Member {
  return { ...row, joinedAt: row.joinedAt.toISOString() };
}

/** A tenant's memberships with their operators' names and addresses. */
@Injectable()
export class MembersRepository extends TransactionalRepository {
  /** Takes the tenant's membership lock until the transaction ends; false for an unknown tenant. */
  async lockTenant(runner: SqlRunner, scope: TenantScope): Promise<boolean> {
    return (await firstRow(runner, LOCK_TENANT, [scope.tenantID])) !== undefined;
  }

  async member(runner: SqlRunner, scope: TenantScope, operatorID: string): Promise<Member | undefined> {
    const row = await firstRow(runner, MEMBER, [scope.tenantID, operatorID]);
    return row && toMember(row);
  }

  async ownerCount(runner: SqlRunner, scope: TenantScope): Promise<number> {
    return (await firstRow(runner, OWNER_COUNT, [scope.tenantID]))?.owners ?? 0;
  }

  async setRole(runner: SqlRunner, scope: TenantScope, operatorID: string, role: MemberRole): Promise<void> {
    await run(runner, SET_ROLE, [scope.tenantID, operatorID, role]);
  }

  async remove(runner: SqlRunner, scope: TenantScope, operatorID: string): Promise<void> {
    await run(runner, REMOVE, [scope.tenantID, operatorID]);
  }

  async count(scope: TenantScope, role: MemberRole | undefined): Promise<number> {
    return (await firstRow(this.dataSource, COUNT, [scope.tenantID, role ?? null]))?.totalCount ?? 0;
  }

  async page(scope: TenantScope, role: MemberRole | undefined, limit: number, offset: number): Promise<Member[]> {
    return (await rows(this.dataSource, PAGE, [scope.tenantID, role ?? null, limit, offset])).map(toMember);
  }
}
