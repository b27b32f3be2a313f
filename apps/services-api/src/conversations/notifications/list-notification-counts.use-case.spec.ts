import { OperatorPrincipal, TenantScope, trustedTenantScope } from '@platform/auth';
import { describe, expect, it } from 'vitest';
import { fake, FakeTenantAccess } from '@platform/testing';
import { ListNotificationCountsUseCase } from './list-notification-counts.use-case';
import type { NotificationCountsRepository } from './notification-counts.repository';

const tenantID = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';
const principal: OperatorPrincipal = { kind: 'operator', operatorID: '9c8b7a6d-5e4f-4321-8abc-def012345678' };

function setUp(refusal?: 'Forbidden' | 'TenantNotFound') {
  const reads: { scope: TenantScope; operatorID: string }[] = [];
  const access = new FakeTenantAccess();
  access.refusal = refusal;
  const counts = fake<NotificationCountsRepository>({
    unreadCounts: async (scope: TenantScope, operatorID: string) => {
      reads.push({ scope, operatorID });
      return { mention: 2, '9b2f6c1e-4d3a-4f5b-8c7d-0e1f2a3b4c5d': 3 };
    },
  });
  return { requirements: () => access.checks.map((check) => check.requirement), reads, useCase: new ListNotificationCountsUseCase(access.asAccess(), counts) };
}

describe('ListNotificationCountsUseCase (operation 14)', () => {
  it("answers the operator's unread counts in the checked tenant", async () => {
    const { useCase, reads, requirements } = setUp();
    expect(await useCase.execute({ principal, tenantID: tenantID.toUpperCase() })).toEqual({ mention: 2, '9b2f6c1e-4d3a-4f5b-8c7d-0e1f2a3b4c5d': 3 });
    expect(reads).toEqual([{ scope: trustedTenantScope(tenantID), operatorID: principal.operatorID }]);
    expect(requirements()).toEqual([{ tenantNotFoundIs404: true }]);
  });

  it('answers an unknown tenant 404 1062 and reads nothing', async () => {
    const { useCase, reads } = setUp('TenantNotFound');
    await expect(useCase.execute({ principal, tenantID })).rejects.toMatchObject({ status: 404, code: 1062 });
    expect(reads).toEqual([]);
  });
});
