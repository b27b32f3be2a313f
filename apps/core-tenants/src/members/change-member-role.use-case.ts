import { Injectable } from '@nestjs/common';
import { AuditTrail } from '@platform/audit';
import type { TenantScope } from '@platform/auth';
import type { ChangeMemberRoleReply, MemberRole } from '@platform/contracts';
import { WebhookEvents } from '@platform/webhooks';
import { MemberChange } from './member-change';
import { MemberStanding } from './member-standing';
import { MembersRepository } from './members.repository';
import { HandledTransportRequests } from '../transport/handled-transport-requests.repository';

export interface ChangeMemberRoleCommand {
  /** The tenant services-api checked the actor's ownership of. */
  scope: TenantScope;
  /** The owner who asks; checked again under the tenant's lock. */
  actorOperatorID: string;
  operatorID: string;
  role: MemberRole;
}

/**
 * An owner gives a member another role. Under the tenant's membership lock
 * (MemberChange): the actor must still own the tenant, the operator must be a
 * member, and demoting the last owner is refused (409 1991). The role, its
 * audit record and its webhook event commit together; the operator's
 * standing is then forgotten on every replica. Giving the role they already
 * have changes and records nothing.
 */
@Injectable()
export class ChangeMemberRoleUseCase {
  constructor(
    private readonly members: MembersRepository,
    private readonly change: MemberChange,
    private readonly audit: AuditTrail,
    private readonly webhooks: WebhookEvents,
    private readonly standing: MemberStanding,
    private readonly handled: HandledTransportRequests,
  ) {}

  async execute(command: ChangeMemberRoleCommand): Promise<ChangeMemberRoleReply> {
    const { scope, operatorID, role } = command;
    const reply = await this.members.transaction(async (runner) => {
      // Once per transport request, whatever Redis says: a replay changes nothing (docs/transport.md, Exactly once).
      await this.handled.record(runner);
      const member = await this.change.lockedMember(runner, scope, command.actorOperatorID, operatorID);
      if (member.role === role) return { member, changed: false };
      if (member.role === 'owner') await this.change.requireAnotherOwner(runner, scope);
      await this.members.setRole(runner, scope, operatorID, role);
      await this.audit.record(runner, scope, { action: 'member.roleChanged', targetID: operatorID, summary: { previousRole: member.role, role } });
      await this.webhooks.emit(runner, scope, {
        type: 'member.roleChanged',
        subject: `member:${operatorID}`,
        data: { operatorID, previousRole: member.role, role },
      });
      return { member: { ...member, role }, changed: true };
    });
    if (reply.changed) await this.standing.forget(scope, operatorID);
    return reply;
  }
}
