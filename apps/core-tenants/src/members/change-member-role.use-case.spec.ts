import { trustedTenantScope } from '@platform/auth';
import { describe, expect, it } from 'vitest';
import { ChangeMemberRoleUseCase } from './change-member-role.use-case';
import { FakeMembers, TENANT } from '../../test/doubles/members.fakes';
import { NOT_A_TRANSPORT_REQUEST } from '../../test/doubles/handled-transport-requests.fakes';

const scope = trustedTenantScope(TENANT);

describe('ChangeMemberRoleUseCase', () => {
  it('changes the role under the lock, records and emits it in the transaction, then forgets the standing', async () => {
    const members = new FakeMembers({ boss: 'owner', ana: 'member' });
    const reply = await new ChangeMemberRoleUseCase(...members.parts(), NOT_A_TRANSPORT_REQUEST).execute({ scope, actorOperatorID: 'boss', operatorID: 'ana', role: 'owner' });
    expect(reply).toMatchObject({ changed: true, member: { operatorID: 'ana', role: 'owner' } });
    expect(members.roles.get('ana')).toBe('owner');
    expect(members.locks).toBe(1);
    expect(members.audit.records).toEqual([
      { runner: members.runner, tenantID: TENANT, record: { action: 'member.roleChanged', targetID: 'ana', summary: { previousRole: 'member', role: 'owner' } } },
    ]);
    expect(members.webhooks.events).toEqual([
      { runner: members.runner, tenantID: TENANT, event: { type: 'member.roleChanged', subject: 'member:ana', data: { operatorID: 'ana', previousRole: 'member', role: 'owner' } } },
    ]);
    expect(members.access.forgotten).toEqual([`${TENANT} operator:ana`]);
  });

  it('changes, records and forgets nothing when the member has the role already', async () => {
    const members = new FakeMembers({ boss: 'owner', ana: 'member' });
    const reply = await new ChangeMemberRoleUseCase(...members.parts(), NOT_A_TRANSPORT_REQUEST).execute({ scope, actorOperatorID: 'boss', operatorID: 'ana', role: 'member' });
    expect(reply.changed).toBe(false);
    expect([members.audit.records, members.webhooks.events, members.access.forgotten]).toEqual([[], [], []]);
  });

  it.each([
    ['demoting the last owner', { boss: 'owner' }, 'boss', 'boss', 'LastOwner'],
    ['an actor no longer owner', { boss: 'member', ana: 'member' }, 'boss', 'ana', 'Forbidden'],
    ['an operator who is not a member', { boss: 'owner' }, 'boss', 'ghost', 'MemberNotFound'],
  ] as const)('refuses %s, writing, emitting and forgetting nothing', async (_case, roles, actorOperatorID, operatorID, key) => {
    const members = new FakeMembers({ ...roles });
    const change = new ChangeMemberRoleUseCase(...members.parts(), NOT_A_TRANSPORT_REQUEST).execute({ scope, actorOperatorID, operatorID, role: operatorID === 'boss' ? 'member' : 'owner' });
    await expect(change).rejects.toMatchObject({ key });
    expect([members.audit.records, members.webhooks.events, members.access.forgotten]).toEqual([[], [], []]);
    expect(Object.fromEntries(members.roles)).toEqual(roles);
  });
});
