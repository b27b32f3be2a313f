import { OperatorFixture } from '@platform/testing';
import { StartOptions, startPlatform, TestPlatform } from '../support/platform';

export type MemberRole = 'owner' | 'member';

/** A tenant with one owner and one member, plus an operator of another tenant, over core-tenants and services-api. */
export interface TeamPlatform {
  platform: TestPlatform;
  tenantID: string;
  owner: OperatorFixture;
  member: OperatorFixture;
  /** Owner of another tenant: no business with tenantID. */
  outsider: OperatorFixture;
  bearer(operator: OperatorFixture | string): Promise<string>;
}

export async function startTeamPlatform(options: StartOptions = {}): Promise<TeamPlatform> {
  const platform = await startPlatform({ apps: ['core-tenants', 'services-api'], ...options });
  const { fixtures } = platform;
  const tenantID = await fixtures.tenant('Acme Atendimento');
  const otherTenantID = await fixtures.tenant('Globex Suporte');
  const owner = await fixtures.operator({ firstname: 'Olivia' });
  const member = await fixtures.operator({ firstname: 'Mateus' });
  const outsider = await fixtures.operator({ firstname: 'Otto' });
  await fixtures.membership(tenantID, owner.operatorID, 'owner');
  await fixtures.membership(tenantID, member.operatorID, 'member');
  await fixtures.membership(otherTenantID, outsider.operatorID, 'owner');
  return {
    platform,
    tenantID,
    owner,
    member,
    outsider,
    bearer: async (operator) => `Bearer ${await platform.tokenFor(typeof operator === 'string' ? operator : operator.operatorID)}`,
  };
}

/** The team routes of services-api through the typed client, as one caller (`authorization` absent: no credential). */
export function teamApi(platform: TestPlatform, tenantID: string, authorization?: string) {
  const headers = authorization ? { authorization } : {};
  const api = platform.api.services;
  return {
    list: (query: { page?: number; perPage?: number; role?: string } = {}) =>
      api.GET('/v1/tenants/{tenantID}/operators', { params: { path: { tenantID }, query: query as never }, headers }),
    changeRole: (operatorID: string, role: string) =>
      api.PATCH('/v1/tenants/{tenantID}/operators/{operatorID}', { params: { path: { tenantID, operatorID } }, body: { role } as never, headers }),
    remove: (operatorID: string) => api.DELETE('/v1/tenants/{tenantID}/operators/{operatorID}', { params: { path: { tenantID, operatorID } }, headers }),
    invitations: (query: { page?: number; perPage?: number } = {}) =>
      api.GET('/v1/tenants/{tenantID}/operators/invitations', { params: { path: { tenantID }, query: query as never }, headers }),
    revoke: (invitationID: string) =>
      api.DELETE('/v1/tenants/{tenantID}/operators/invitations/{invitationID}', { params: { path: { tenantID, invitationID } }, headers }),
  };
}

/** The role of an operator in a tenant as PostgreSQL holds it, or undefined when they are not a member. */
export async function roleOf(platform: TestPlatform, tenantID: string, operatorID: string): Promise<MemberRole | undefined> {
  const rows: { role: MemberRole }[] = await platform.dataSource.query('SELECT role FROM memberships WHERE tenant_id = $1 AND operator_id = $2', [
    tenantID,
    operatorID,
  ]);
  return rows[0]?.role;
}

/** The tenant's audit records of one action, oldest first, as `[targetID, actor, summary]`. */
export async function auditRecordsOf(platform: TestPlatform, tenantID: string, action: string): Promise<[string, string, unknown][]> {
  const rows: { target_id: string; actor_id: string; summary: unknown }[] = await platform.dataSource.query(
    'SELECT target_id, actor_id, summary FROM audit_events WHERE tenant_id = $1 AND action = $2 ORDER BY occurred_at, id',
    [tenantID, action],
  );
  return rows.map((row) => [row.target_id, row.actor_id, row.summary]);
}
