import { grantTenantScope } from '@platform/auth';
import type { AccessRequirement, Principal, TenantAccessService, TenantScope } from '@platform/auth';
import { AppException } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import { fake } from '@platform/testing';
import { ReadTenantUseCase } from './read-tenant.use-case';
import type { TenantDetailsRow, TenantsRepository } from './tenants.repository';

const acme = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';
const unknownTenant = '5d1e0f3a-8c2b-4d6e-9f10-000000000000';
const member: Principal = { kind: 'operator', operatorID: 'a1b2c3d4-0000-4000-8000-000000000001' };
const stranger: Principal = { kind: 'operator', operatorID: 'a1b2c3d4-0000-4000-8000-000000000009' };

/** An access check over a fixed set of tenants and members, recording what it was asked. */
class FakeAccess {
  readonly requirements: AccessRequirement[] = [];

  constructor(private readonly members: Record<string, string[]>) {}

  asService(): TenantAccessService {
    return fake<TenantAccessService>({
      require: async (principal: Principal, tenantID: string, requirement: AccessRequirement = {}) => {
        this.requirements.push(requirement);
        const tenant = tenantID.toLowerCase();
        if (!this.members[tenant]) throw new AppException(requirement.tenantNotFoundIs404 ? 'TenantNotFound' : 'Forbidden');
        if (principal.kind !== 'operator' || !this.members[tenant].includes(principal.operatorID)) throw new AppException('Forbidden');
        return grantTenantScope(tenant);
      },
    });
  }
}

class FakeTenants {
  readonly reads: TenantScope[] = [];

  constructor(private readonly details: Record<string, TenantDetailsRow>) {}

  asRepository(): TenantsRepository {
    return fake<TenantsRepository>({
      findDetails: async (scope: TenantScope) => {
        this.reads.push(scope);
        return this.details[scope.tenantID];
      },
    });
  }
}

function useCase(details: Record<string, TenantDetailsRow> = { [acme]: { tenantID: acme, tenantName: 'Acme Support', createdAt: new Date('2026-01-02T03:04:05.000Z') } }) {
  const access = new FakeAccess({ [acme]: [(member as { operatorID: string }).operatorID] });
  const tenants = new FakeTenants(details);
  return { access, tenants, read: new ReadTenantUseCase(access.asService(), tenants.asRepository()) };
}

async function errorKeyOf(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => undefined,
    (error: { key?: string }) => error.key,
  );
}

describe('ReadTenantUseCase', () => {
  it("answers a member the tenant's details, the creation time as ISO 8601", async () => {
    const { read } = useCase();
    expect(await read.execute({ principal: member, tenantID: acme.toUpperCase() })).toEqual({
      tenantID: acme,
      tenantName: 'Acme Support',
      createdAt: '2026-01-02T03:04:05.000Z',
    });
  });

  it('answers 404 1062 for an unknown tenant, and reads nothing', async () => {
    const { read, access, tenants } = useCase();
    expect(await errorKeyOf(read.execute({ principal: member, tenantID: unknownTenant }))).toBe('TenantNotFound');
    expect(access.requirements).toEqual([{ tenantNotFoundIs404: true }]);
    expect(tenants.reads).toEqual([]);
  });

  it('answers 403 1004 to an operator of another tenant, and reads nothing', async () => {
    const { read, tenants } = useCase();
    expect(await errorKeyOf(read.execute({ principal: stranger, tenantID: acme }))).toBe('Forbidden');
    expect(tenants.reads).toEqual([]);
  });

  it('answers 404 1062 when the tenant is gone by the time it is read', async () => {
    const { read } = useCase({});
    expect(await errorKeyOf(read.execute({ principal: member, tenantID: acme }))).toBe('TenantNotFound');
  });
});
