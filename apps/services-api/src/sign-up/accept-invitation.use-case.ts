import { Injectable } from '@nestjs/common';
import { hashSecretToken } from '@platform/auth';
import { DataSource } from 'typeorm';
import { Clock } from './clock';
import { invalidInvitation, usableInvitation } from './invitations';
import { OperatorsRepository } from './operators.repository';

/**
 * An operator who already has an account joins the tenant that invited their
 * address (sign-up with an invitation is for new addresses only). The same
 * checks and the same 400 as sign-up: unknown, used, expired, or for another
 * address. Membership and the invitation's use are one transaction.
 */
@Injectable()
export class AcceptInvitation {
  constructor(
    private readonly dataSource: DataSource,
    private readonly operators: OperatorsRepository,
    private readonly clock: Clock,
  ) {}

  async execute(operatorID: string, token: string): Promise<{ tenantID: string; role: 'member' }> {
    const email = await this.operators.emailOf(operatorID);
    const tokenHash = hashSecretToken(token);
    return this.dataSource.transaction(async (manager) => {
      const invitation = await this.operators.invitationByTokenHash(tokenHash, manager, true);
      if (email === undefined || !usableInvitation(invitation, email, this.clock.now())) throw invalidInvitation(token);
      await this.operators.acceptInvitation(manager, invitation, operatorID, new Date(this.clock.now()));
      return { tenantID: invitation.tenantID, role: 'member' };
    });
  }
}
