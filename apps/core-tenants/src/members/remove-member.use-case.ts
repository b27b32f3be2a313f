import { Injectable } from '@nestjs/common';
import { AuditTrail } from '@platform/audit';
import type { TenantScope } from '@platform/auth';
import type { RemoveMemberReply } from '@platform/contracts';
import { WebhookEvents } from '@platform/webhooks';
import { MemberChange } from './member-change';
import { MemberStanding } from './member-standing';
import { MembersRepository } from './members.repository';
import { HandledTransportRequests } from '../transport/handled-transport-requests.repository';

export interface RemoveMemberCommand {
  /** The tenant services-api checked the actor's ownership of. */
  scope: TenantScope;
  /** The owner who asks; checked again under the tenant's lock. */
  actorOperatorID: string;
  operatorID: string;
}

/**
 * An owner ends an operator's membership (their own included, while another
 * owner remains). Under the tenant's membership lock (MemberChange): the
 * actor must still own the tenant, the operator must be a member, and the
 * last owner stays (409 1991). The removal, its audit record and its webhook
 * event commit together; the operator's standing is then forgotten on every
 * replica, so their next request is refused however long their token lives.
 */
@Injectable()
export class RemoveMemberUseCase {
  constructor(
    private readonly members: MembersRepository,
    private readonly change: MemberChange,
    private readonly audit: AuditTrail,
    private readonly webhooks: WebhookEvents,
    private readonly standing: MemberStanding,
    private readonly handled: HandledTransportRequests,
  ) {}

  async execute(command: RemoveMemberCommand): Promise<RemoveMemberReply> {
    const { scope, operatorID } = command;
    await this.members.transaction(async (runner) => {
      // Once per transport request, whatever Redis says: a replay changes nothing (docs/transport.md, Exactly once).
      await this.handled.record(runner);
      const member = await this.change.lockedMember(runner, scope, command.actorOperatorID, operatorID);
      if (member.role === 'owner') await this.change.requireAnotherOwner(runner, scope);
      await this.members.remove(runner, scope, operatorID);
      await this.audit.record(runner, scope, { action: 'member.removed', targetID: operatorID, summary: { role: member.role } });
      await this.webhooks.emit(runner, scope, { type: 'member.removed', subject: `member:${operatorID}`, data: { operatorID, role: member.role } });
    });
    await this.standing.forget(scope, operatorID);
    return { removed: true };
  }
}
