import type { ListMembersPayload } from '@platform/contracts';
import { fake, FakeTenantAccess } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { ListMembersUseCase } from './list-members.use-case';
import type { TeamClient } from './team.client';

const TENANT = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';
const principal = { kind: 'operator' as const, operatorID: '3b241101-e2bb-4255-8caf-4136c566a962' };
const member = { operatorID: 'op-1', operatorEmail: 'ana@acme.com.br', operatorFirstname: 'Ana', operatorLastname: null, role: 'member' as const, joinedAt: '2026-03-01T12:00:00.000Z' };

function team(totalCount: number): { client: TeamClient; asked: ListMembersPayload[] } {
  const asked: ListMembersPayload[] = [];
  const client = fake<TeamClient>({
    listMembers: async (request: ListMembersPayload) => {
      asked.push(request);
      return { totalCount, members: [member] };
    },
  });
  return { client, asked };
}

describe('ListMembersUseCase', () => {
  it('lets members read (no owner requirement), asks core-tenants for the page and answers the list meta', async () => {
    const access = new FakeTenantAccess();
    const { client, asked } = team(3);
    const page = await new ListMembersUseCase(access.asAccess(), client).execute({ principal, tenantID: TENANT, page: { page: 2, perPage: 1 }, role: 'member' });
    expect(access.checks).toEqual([{ tenantID: TENANT, requirement: { tenantNotFoundIs404: true } }]);
    expect(asked).toEqual([{ tenantID: TENANT, role: 'member', offset: 1, limit: 1 }]);
    expect(page).toEqual({
      data: [{ ...member, tenantID: TENANT }],
      meta: { count: 1, currentPage: 2, hasMore: true, perPage: 1, totalCount: 3, totalPages: 3 },
    });
  });

  it('asks core-tenants nothing for a caller the access check refuses', async () => {
    const access = new FakeTenantAccess();
    access.refusal = 'Forbidden';
    const { client, asked } = team(3);
    await expect(new ListMembersUseCase(access.asAccess(), client).execute({ principal, tenantID: TENANT, page: { page: 1, perPage: 20 } })).rejects.toMatchObject({
      key: 'Forbidden',
    });
    expect(asked).toEqual([]);
  });
});
