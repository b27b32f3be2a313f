import type { RemoveMemberPayload } from '@platform/contracts';
import { fake, FakeTenantAccess } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { RemoveMemberUseCase } from './remove-member.use-case';
import type { TeamClient } from './team.client';

const TENANT = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';
const principal = { kind: 'operator' as const, operatorID: '3b241101-e2bb-4255-8caf-4136c566a962' };

describe('RemoveMemberUseCase', () => {
  it('requires an owner, then asks core-tenants with the actor, who core-tenants checks again under its lock', async () => {
    const access = new FakeTenantAccess();
    const asked: RemoveMemberPayload[] = [];
    const client = fake<TeamClient>({ removeMember: async (removal: RemoveMemberPayload) => void asked.push(removal) });
    expect(await new RemoveMemberUseCase(access.asAccess(), client).execute({ principal, tenantID: TENANT, operatorID: 'op-1' })).toEqual({
      operatorID: 'op-1',
      tenantID: TENANT,
      removed: true,
    });
    expect(access.checks).toEqual([{ tenantID: TENANT, requirement: { ownerOnly: true, tenantNotFoundIs404: true } }]);
    expect(asked).toEqual([{ tenantID: TENANT, actorOperatorID: principal.operatorID, operatorID: 'op-1' }]);
  });

  it('asks core-tenants nothing for a member (403 1004)', async () => {
    const access = new FakeTenantAccess();
    access.refusal = 'Forbidden';
    const asked: RemoveMemberPayload[] = [];
    const client = fake<TeamClient>({ removeMember: async (removal: RemoveMemberPayload) => void asked.push(removal) });
    await expect(new RemoveMemberUseCase(access.asAccess(), client).execute({ principal, tenantID: TENANT, operatorID: 'op-1' })).rejects.toMatchObject({ key: 'Forbidden' });
    expect(asked).toEqual([]);
  });
});
