import { Injectable } from '@nestjs/common';
import { Clock } from '@platform/scheduling';
import { AuditTrail } from '@platform/audit';
import { trustedTenantScope } from '@platform/auth';
import { AcceptInvitationReply } from '@platform/contracts';
import { WebhookEvents } from '@platform/webhooks';
import { invitationAccepted, usableInvitation } from './invitations';
import { OperatorsRepository } from './operators.repository';
import { MemberStanding } from '../members/member-standing';
import { HandledTransportRequests } from '../transport/handled-transport-requests.repository';

export interface AcceptInvitationCommand {
  operatorID: string;
  tokenHash: string;
}

/**
 * An operator who already has an account joins the tenant that invited their
 * address. The invitation is locked, checked (unused, unexpired, for this
 * operator's address) and used up with the membership, its audit record
 * and its `invitation.accepted` webhook event in one transaction. Then the
 * operator's standing in the tenant is forgotten on every replica: a "not a
 * member" answer cached by a request made before would otherwise refuse
 * them (403 1004) for up to its 5 s (docs/security.md, Immediate revocation
 * of a membership, which a grant uses too).
 */
@Injectable()
export class AcceptInvitationUseCase {
  constructor(
    private readonly operators: OperatorsRepository,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
    private readonly webhooks: WebhookEvents,
    private readonly handled: HandledTransportRequests,
    private readonly standing: MemberStanding,
  ) {}

  async execute(command: AcceptInvitationCommand): Promise<AcceptInvitationReply> {
    const email = await this.operators.emailOf(command.operatorID);
    const reply = await this.operators.transaction(async (runner): Promise<AcceptInvitationReply> => {
      // Once per transport request, whatever Redis says: a replay changes nothing (docs/transport.md, Exactly once).
      await this.handled.record(runner);
      const invitation = await this.operators.lockInvitationByTokenHash(runner, command.tokenHash);
      const now = this.clock.now();
      if (email === undefined || !usableInvitation(invitation, email, now.getTime())) return { outcome: 'unusable' };
      await this.operators.acceptInvitation(runner, invitation, command.operatorID, now);
      const scope = trustedTenantScope(invitation.tenantID);
      await this.audit.record(runner, scope, {
        action: 'invitation.accepted',
        targetID: invitation.id,
        summary: { operatorID: command.operatorID, role: 'member' },
      });
      await this.webhooks.emit(runner, scope, invitationAccepted(invitation.id, command.operatorID));
      return { outcome: 'accepted', tenantID: invitation.tenantID, role: 'member' };
    });
    if (reply.outcome === 'accepted') await this.standing.forget(trustedTenantScope(reply.tenantID), command.operatorID);
    return reply;
  }
}
