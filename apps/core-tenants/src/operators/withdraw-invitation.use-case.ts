import { Injectable } from '@nestjs/common';
import { AuditTrail } from '@platform/audit';
import { trustedTenantScope } from '@platform/auth';
import { WithdrawInvitationReply } from '@platform/contracts';
import { AppException } from '@platform/errors';
import { OperatorsRepository } from './operators.repository';
import { HandledTransportRequests } from '../transport/handled-transport-requests.repository';

/** Why an invitation is withdrawn, as its `invitation.revoked` record says. */
export const WITHDRAWAL_REASONS = {
  mailNotQueued: 'invitation mail could not be queued',
  revokedByOwner: 'revoked by an owner',
} as const;

export interface WithdrawInvitationCommand {
  invitationID: string;
  /** Only an invitation of this tenant is withdrawn (an owner's revocation); absent when its mail could not be queued. */
  tenantID?: string;
  reason: keyof typeof WITHDRAWAL_REASONS;
}

/**
 * Deletes an invitation that was never accepted, so its token can no longer
 * be used: when its mail could not be queued, or when an owner revokes it.
 * An accepted one stays. Asking twice is harmless: the second answers false,
 * or, for an owner's revocation, 404 1992 (the tenant has no such pending
 * invitation).
 */
@Injectable()
export class WithdrawInvitationUseCase {
  constructor(
    private readonly operators: OperatorsRepository,
    private readonly audit: AuditTrail,
    private readonly handled: HandledTransportRequests,
  ) {}

  async execute(command: WithdrawInvitationCommand): Promise<WithdrawInvitationReply> {
    // The audit log keeps `invitation.sent`; the withdrawal is recorded beside it, in the same transaction as the delete.
    const withdrawn = await this.operators.transaction(async (runner) => {
      // Once per transport request, whatever Redis says: a replay changes nothing (docs/transport.md, Exactly once).
      await this.handled.record(runner);
      const tenantID = await this.operators.withdrawInvitation(command.invitationID, runner, command.tenantID);
      if (tenantID === undefined) return false;
      await this.audit.record(runner, trustedTenantScope(tenantID), {
        action: 'invitation.revoked',
        targetID: command.invitationID,
        summary: { reason: WITHDRAWAL_REASONS[command.reason] },
      });
      return true;
    });
    if (!withdrawn && command.reason === 'revokedByOwner') throw new AppException('InvitationNotFound');
    return { withdrawn };
  }
}
