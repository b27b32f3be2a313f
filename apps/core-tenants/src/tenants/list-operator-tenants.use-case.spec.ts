import { describe, expect, it } from 'vitest';
import { fake } from '@platform/testing';
import { ListOperatorTenantsUseCase } from './list-operator-tenants.use-case';
import type { OperatorTenantRow, TenantsRepository } from './tenants.repository';

const ana = 'a1b2c3d4-0000-4000-8000-000000000001';
const bruno = 'a1b2c3d4-0000-4000-8000-000000000002';

/** Memberships as the repository keeps them, already in the repository's order. */
function repositoryOf(memberships: Record<string, OperatorTenantRow[]>): TenantsRepository {
  return fake<TenantsRepository>({
    listForOperator: async (operatorID: string) => memberships[operatorID] ?? [],
  });
}

describe('ListOperatorTenantsUseCase', () => {
  const tenants = repositoryOf({
    [ana]: [
      { tenantID: 't-1', tenantName: 'Acme Support', role: 'owner' },
      { tenantID: 't-2', tenantName: 'Beta Help', role: 'member' },
    ],
  });
  const list = new ListOperatorTenantsUseCase(tenants);

  it("answers the operator's tenants, each with the operator's role, in the repository's order", async () => {
    expect(await list.execute({ principal: { kind: 'operator', operatorID: ana } })).toEqual([
      { tenantID: 't-1', tenantName: 'Acme Support', role: 'owner' },
      { tenantID: 't-2', tenantName: 'Beta Help', role: 'member' },
    ]);
  });

  it('answers an empty list for an operator without tenants', async () => {
    expect(await list.execute({ principal: { kind: 'operator', operatorID: bruno } })).toEqual([]);
  });
});
