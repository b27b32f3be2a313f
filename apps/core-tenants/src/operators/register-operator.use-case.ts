import { Injectable } from '@nestjs/common';
import { Clock } from '@platform/scheduling';
import { AuditTrail } from '@platform/audit';
import { trustedTenantScope } from '@platform/auth';
import { RegisterOperatorReply } from '@platform/contracts';
import { WebhookEvents } from '@platform/webhooks';
import { invitationAccepted, usableInvitation } from './invitations';
import { NewOperator, OperatorsRepository } from './operators.repository';
import { HandledTransportRequests } from '../transport/handled-transport-requests.repository';

export interface RegisterOperatorCommand {
  operator: NewOperator;
  /** Set when the address was proven by an invitation rather than by a mailed code. */
  invitationTokenHash?: string;
}

/**
 * Creates an operator whose address services-api has proven. With an
 * invitation, the invitation is locked, checked, used up and the membership
 * written (with its audit record and `invitation.accepted` webhook event) in one transaction: two sign-ups with one token cannot both
 * succeed, and a refusal writes nothing. An address that already has an
 * account is told apart only to services-api, which answers it exactly as a
 * wrong code or an unusable invitation.
 */
@Injectable()
export class RegisterOperatorUseCase {
  constructor(
    private readonly operators: OperatorsRepository,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
    private readonly webhooks: WebhookEvents,
    private readonly handled: HandledTransportRequests,
  ) {}

  async execute(command: RegisterOperatorCommand): Promise<RegisterOperatorReply> {
    const { operator, invitationTokenHash } = command;
    if (invitationTokenHash === undefined) {
      return this.operators.transaction(async (runner) => {
        // Once per transport request, whatever Redis says: a replay changes nothing (docs/transport.md, Exactly once).
        await this.handled.record(runner);
        const operatorID = await this.operators.create(operator, runner);
        return operatorID ? { outcome: 'registered', operatorID } : { outcome: 'email-taken' };
      });
    }
    return this.operators.transaction(async (runner) => {
      await this.handled.record(runner);
      const invitation = await this.operators.lockInvitationByTokenHash(runner, invitationTokenHash);
      const now = this.clock.now();
      if (!usableInvitation(invitation, operator.email, now.getTime())) return { outcome: 'invitation-unusable' };
      const operatorID = await this.operators.create(operator, runner);
      if (!operatorID) return { outcome: 'invitation-unusable' };
      await this.operators.acceptInvitation(runner, invitation, operatorID, now);
      // Signing up is not authenticated: the operator it creates is who accepted.
      const scope = trustedTenantScope(invitation.tenantID);
      await this.audit.record(
        runner,
        scope,
        { action: 'invitation.accepted', targetID: invitation.id, summary: { operatorID, role: 'member' } },
        `operator:${operatorID}`,
      );
      await this.webhooks.emit(runner, scope, invitationAccepted(invitation.id, operatorID));
      // No standing to forget: the operator is new, so nothing can have cached one for them.
      return { outcome: 'registered', operatorID };
    });
  }
}
