import type { Principal, RequestCharges, TenantAccessService } from '@platform/auth';
import { fake } from '@platform/testing-doubles';
import { AppException } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import { HelpdeskAccessRepository, TenantHelpdeskState } from './helpdesk-access.repository';
import { HelpdeskAccess } from './helpdesk-access.service';
import { HelpdeskPlugin } from './helpdesk-plugin';

const TENANT = '5D1E0F3A-8C2B-4D6E-9F10-112233445566';
const HELPDESK_PLUGIN = 'a1b2c3d4-0000-4000-8000-000000000001';

/** The tenant's helpdesk state, as PostgreSQL would answer it; and what was asked of whom. */
function setUp(state: TenantHelpdeskState, options: { member?: boolean } = {}) {
  const asked: string[] = [];
  const repository: Pick<HelpdeskAccessRepository, 'pluginIDByUrn' | 'tenantHelpdeskState'> = {
    pluginIDByUrn: async () => HELPDESK_PLUGIN,
    tenantHelpdeskState: async () => (asked.push('helpdesk state'), state),
  };
  const tenantAccess: Pick<TenantAccessService, 'check'> = {
    check: async (_principal, _tenantID, requirement) => {
      asked.push(requirement?.ownerOnly ? 'ownership' : 'membership');
      if (options.member === false) throw new AppException('Forbidden');
    },
  };
  const access = new HelpdeskAccess(
    repository as HelpdeskAccessRepository,
    tenantAccess as TenantAccessService,
    new HelpdeskPlugin(repository as HelpdeskAccessRepository, { pluginUrn: 'urn:plugin:helpdesk', cnameTarget: 'x', maxDomainsPerTenant: 20, pendingDomainTtlDays: 7, domainSweepIntervalSeconds: 900 }),
    fake<RequestCharges>({ chargeAdmittedTenant: async () => undefined }),
  );
  return { access, asked };
}

const outcomeOf = (promise: Promise<unknown>) =>
  promise.then(
    (value) => value,
    (error: AppException) => error.key,
  );

const operator: Principal = { kind: 'operator', operatorID: 'op-1' };
const helpdeskPlugin: Principal = { kind: 'plugin', pluginID: HELPDESK_PLUGIN };
const otherPlugin: Principal = { kind: 'plugin', pluginID: 'another-plugin' };
const otherConnection: Principal = { kind: 'pluginConnection', pluginConnectionID: 'c-1', pluginID: 'another-plugin', tenantID: TENANT.toLowerCase() };

describe('HelpdeskAccess', () => {
  it('grants the scope of the tenant, lower-cased, once the membership and then the helpdesk state pass', async () => {
    const { access, asked } = setUp({ exists: true, connected: true });
    expect(await access.require(operator, TENANT)).toEqual({ tenantID: TENANT.toLowerCase() });
    expect(asked).toEqual(['membership', 'helpdesk state']);
  });

  it('refuses 403 1004 a plugin other than the helpdesk plugin, or its connection, before reading anything', async () => {
    for (const principal of [otherPlugin, otherConnection]) {
      const { access, asked } = setUp({ exists: true, connected: true });
      expect(await outcomeOf(access.require(principal, TENANT))).toBe('Forbidden');
      expect(asked).toEqual([]);
    }
  });

  it("refuses 403 1004 an operator who is not a member before reading the tenant's helpdesk state", async () => {
    const { access, asked } = setUp({ exists: true, connected: false }, { member: false });
    expect(await outcomeOf(access.require(operator, TENANT))).toBe('Forbidden');
    expect(asked).toEqual(['membership']);
  });

  it('asks operators for ownership only when the operation wants an owner, and never asks it of the connection', async () => {
    const ownConnection: Principal = { kind: 'pluginConnection', pluginConnectionID: 'c-2', pluginID: HELPDESK_PLUGIN, tenantID: TENANT.toLowerCase() };
    const { access, asked } = setUp({ exists: true, connected: true });
    await access.require(operator, TENANT, { operatorMustBeOwner: true });
    await access.require(ownConnection, TENANT, { operatorMustBeOwner: true });
    await access.require(operator, TENANT);
    expect(asked.filter((step) => step !== 'helpdesk state')).toEqual(['ownership', 'membership', 'membership']);
  });

  it('refuses 403 1004 for a tenant that does not exist, before 422 1000', async () => {
    const { access } = setUp({ exists: false, connected: false });
    expect(await outcomeOf(access.require(helpdeskPlugin, TENANT))).toBe('Forbidden');
  });

  it('answers 422 1000 when the tenant has no live helpdesk connection', async () => {
    const { access } = setUp({ exists: true, connected: false });
    expect(await outcomeOf(access.require(helpdeskPlugin, TENANT))).toBe('TenantNotConnected');
    expect(await outcomeOf(access.require(operator, TENANT))).toBe('TenantNotConnected');
  });
});
