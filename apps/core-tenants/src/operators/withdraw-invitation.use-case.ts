import { Injectable } from '@nestjs/common';
import { AuditTrail } from '@platform/audit';
import { trustedTenantScope } from '@platform/auth';
import { WithdrawInvitationReply } from '@platform/contracts';
import { OperatorsRepository } from './operators.repository';

export interface WithdrawInvitationCommand {
  invitationID: string;
}

/** Deletes an invitation whose mail could not be queued; an accepted one stays. Asking twice is harmless. */
@Injectable()
export class WithdrawInvitationUseCase {
  constructor(
    private readonly operators: OperatorsRepository,
    private readonly audit: AuditTrail,
  ) {}

  async execute(command: WithdrawInvitationCommand): Promise<WithdrawInvitationReply> {
    // The audit log keeps `invitation.sent`; the withdrawal is recorded beside it, in the same transaction as the delete.
    const withdrawn = await this.operators.transaction(async (runner) => {
      const tenantID = await this.operators.withdrawInvitation(command.invitationID, runner);
      if (tenantID === undefined) return false;
      await this.audit.record(runner, trustedTenantScope(tenantID), {
        action: 'invitation.revoked',
        targetID: command.invitationID,
        summary: { reason: 'invitation mail could not be queued' },
      });
      return true;
    });
    return { withdrawn };
  }
}
