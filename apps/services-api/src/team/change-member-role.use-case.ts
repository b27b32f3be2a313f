import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import type { MemberRole } from '@platform/contracts';
import type { TenantMemberDto } from './team.dto';
import { TeamClient } from './team.client';

export interface ChangeMemberRoleCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  /** Canonical (IsCanonicalUuid). */
  operatorID: string;
  role: MemberRole;
}

/**
 * An owner gives a member another role (403 1004 for anyone else, 404 1062
 * for an unknown tenant). core-tenants decides under the tenant's lock:
 * 404 1990 for an operator who is not a member, 409 1991 for demoting the
 * last owner; the changed member's standing is forgotten on every replica
 * before the answer.
 */
@Injectable()
export class ChangeMemberRoleUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly team: TeamClient,
  ) {}

  async execute(command: ChangeMemberRoleCommand): Promise<TenantMemberDto> {
    const scope = await this.access.require(command.principal, command.tenantID, { ownerOnly: true, tenantNotFoundIs404: true });
    const { member } = await this.team.changeRole({ tenantID: scope.tenantID, actorOperatorID: command.principal.operatorID, operatorID: command.operatorID, role: command.role });
    return { ...member, tenantID: scope.tenantID };
  }
}
