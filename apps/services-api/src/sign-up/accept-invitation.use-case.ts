import { Injectable } from '@nestjs/common';
import { hashSecretToken } from '@platform/auth';
import { invalidInvitation } from './invitations';
import { OperatorsClient } from './operators.client';
import { fromCoreTenants } from './sign-up-errors';

export interface AcceptInvitationCommand {
  /** The signed-in operator. */
  operatorID: string;
  invitationToken: string;
}

/**
 * An operator who already has an account joins the tenant that invited their
 * address (sign-up with an invitation is for new addresses only). The same
 * 400 as sign-up whatever the reason: unknown, used, expired, or for another
 * address. core-tenants writes the membership and uses the invitation up in
 * one transaction: either both happen or neither does.
 */
@Injectable()
export class AcceptInvitationUseCase {
  constructor(private readonly operators: OperatorsClient) {}

  async execute(command: AcceptInvitationCommand): Promise<{ tenantID: string; role: 'member' }> {
    const reply = await fromCoreTenants(() => this.operators.acceptInvitation(command.operatorID, hashSecretToken(command.invitationToken)));
    if (reply.outcome !== 'accepted') throw invalidInvitation(command.invitationToken);
    return { tenantID: reply.tenantID, role: reply.role };
  }
}
