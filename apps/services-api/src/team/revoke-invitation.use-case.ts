import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import type { RevokedInvitationDto } from './team.dto';
import { TeamClient } from './team.client';

export interface RevokeInvitationCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  /** Canonical (IsCanonicalUuid). */
  invitationID: string;
}

/**
 * An owner revokes an invitation of the tenant that was not accepted (403
 * 1004 for anyone else, 404 1062 for an unknown tenant, 404 1992 when the
 * tenant has no such invitation). core-tenants withdraws it as it does one
 * whose mail could not be queued: its token is then refused like an unknown one.
 */
@Injectable()
export class RevokeInvitationUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly team: TeamClient,
  ) {}

  async execute(command: RevokeInvitationCommand): Promise<RevokedInvitationDto> {
    const scope = await this.access.require(command.principal, command.tenantID, { ownerOnly: true, tenantNotFoundIs404: true });
    await this.team.revokeInvitation({ tenantID: scope.tenantID, invitationID: command.invitationID });
    return { invitationID: command.invitationID, tenantID: scope.tenantID, revoked: true };
  }
}
