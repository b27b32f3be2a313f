import { trustedTenantScope } from '@platform/auth';
import { describe, expect, it } from 'vitest';
import { FakeMembers, TENANT } from '../../test/doubles/members.fakes';
import { RemoveMemberUseCase } from './remove-member.use-case';
import { NOT_A_TRANSPORT_REQUEST } from '../../test/doubles/handled-transport-requests.fakes';

const scope = trustedTenantScope(TENANT);

describe('RemoveMemberUseCase', () => {
  it('removes under the lock, records and emits it in the transaction, then forgets the standing', async () => {
    const members = new FakeMembers({ boss: 'owner', ana: 'member' });
    expect(await new RemoveMemberUseCase(...members.parts(), NOT_A_TRANSPORT_REQUEST).execute({ scope, actorOperatorID: 'boss', operatorID: 'ana' })).toEqual({ removed: true });
    expect(members.roles.has('ana')).toBe(false);
    expect(members.locks).toBe(1);
    expect(members.audit.records).toEqual([{ runner: members.runner, tenantID: TENANT, record: { action: 'member.removed', targetID: 'ana', summary: { role: 'member' } } }]);
    expect(members.webhooks.events).toEqual([
      { runner: members.runner, tenantID: TENANT, event: { type: 'member.removed', subject: 'member:ana', data: { operatorID: 'ana', role: 'member' } } },
    ]);
    expect(members.access.forgotten).toEqual([`${TENANT} operator:ana`]);
  });

  it('lets an owner remove themself while another owner remains', async () => {
    const members = new FakeMembers({ boss: 'owner', other: 'owner' });
    await new RemoveMemberUseCase(...members.parts(), NOT_A_TRANSPORT_REQUEST).execute({ scope, actorOperatorID: 'boss', operatorID: 'boss' });
    expect(Object.fromEntries(members.roles)).toEqual({ other: 'owner' });
  });

  it.each([
    ['the last owner', { boss: 'owner', ana: 'member' }, 'boss', 'boss', 'LastOwner'],
    ['an actor no longer owner', { boss: 'member', ana: 'member' }, 'boss', 'ana', 'Forbidden'],
    ['an operator who is not a member', { boss: 'owner' }, 'boss', 'ghost', 'MemberNotFound'],
  ] as const)('refuses %s, writing, emitting and forgetting nothing', async (_case, roles, actorOperatorID, operatorID, key) => {
    const members = new FakeMembers({ ...roles });
    await expect(new RemoveMemberUseCase(...members.parts(), NOT_A_TRANSPORT_REQUEST).execute({ scope, actorOperatorID, operatorID })).rejects.toMatchObject({ key });
    expect([members.audit.records, members.webhooks.events, members.access.forgotten]).toEqual([[], [], []]);
    expect(Object.fromEntries(members.roles)).toEqual(roles);
  });
});
