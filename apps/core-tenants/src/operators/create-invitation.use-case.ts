import { Injectable } from '@nestjs/common';
import { AuditTrail } from '@platform/audit';
import { trustedTenantScope } from '@platform/auth';
import { CreateInvitationReply } from '@platform/contracts';
import { AppException } from '@platform/errors';
import { NewInvitation, OperatorsRepository } from './operators.repository';
import { HandledTransportRequests } from '../transport/handled-transport-requests.repository';

export type CreateInvitationCommand = NewInvitation;

/**
 * Records an invitation services-api has checked the inviter may send, and
 * answers what its mail names. The insert is idempotent on the id services-api
 * chose, so a retry after a lost reply records one invitation.
 */
@Injectable()
export class CreateInvitationUseCase {
  constructor(
    private readonly operators: OperatorsRepository,
    private readonly audit: AuditTrail,
    private readonly handled: HandledTransportRequests,
  ) {}

  async execute(command: CreateInvitationCommand): Promise<CreateInvitationReply> {
    const context = await this.operators.invitationContext(command.tenantID, command.invitedBy);
    // The access check found the tenant; it can only be gone if it was deleted since.
    if (!context) throw new AppException('TenantNotFound');
    // The invitation and its audit record commit together; a retry records neither again.
    await this.operators.transaction(async (runner) => {
      // Once per transport request, whatever Redis says: a replay changes nothing (docs/transport.md, Exactly once).
      await this.handled.record(runner);
      if (!(await this.operators.createInvitation(command, runner))) return;
      await this.audit.record(runner, trustedTenantScope(command.tenantID), {
        action: 'invitation.sent',
        targetID: command.id,
        summary: { operatorEmail: command.email, expiresAt: command.expiresAt.toISOString() },
      });
    });
    return { invitationID: command.id, tenantName: context.tenantName, inviterName: context.inviterName };
  }
}
