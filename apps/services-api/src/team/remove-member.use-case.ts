import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import type { RemovedMemberDto } from './team.dto';
import { TeamClient } from './team.client';

export interface RemoveMemberCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  /** Canonical (IsCanonicalUuid). */
  operatorID: string;
}

/**
 * An owner removes a member, themself included while another owner remains
 * (403 1004 for anyone else: a member cannot leave on their own; 404 1062
 * for an unknown tenant). core-tenants decides under the tenant's lock:
 * 404 1990 for an operator who is not a member, 409 1991 for the last owner.
 * Before the answer, the removed operator's standing is forgotten on every
 * replica: their next request is refused, whatever their token says.
 */
@Injectable()
export class RemoveMemberUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly team: TeamClient,
  ) {}

  async execute(command: RemoveMemberCommand): Promise<RemovedMemberDto> {
    const scope = await this.access.require(command.principal, command.tenantID, { ownerOnly: true, tenantNotFoundIs404: true });
    await this.team.removeMember({ tenantID: scope.tenantID, actorOperatorID: command.principal.operatorID, operatorID: command.operatorID });
    return { operatorID: command.operatorID, tenantID: scope.tenantID, removed: true };
  }
}
