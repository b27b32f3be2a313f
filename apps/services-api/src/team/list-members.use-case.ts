import { Injectable } from '@nestjs/common';
import { Principal, TenantAccessService } from '@platform/auth';
import type { MemberRole } from '@platform/contracts';
import { listMeta, ListMetaDto, pageOffsetOf, PageRequest } from '@platform/http-common';
import type { TenantMemberDto } from './team.dto';
import { TeamClient } from './team.client';

export interface ListMembersCommand {
  principal: Principal;
  tenantID: string;
  page: PageRequest;
  role?: MemberRole;
}

export interface MemberPage {
  data: TenantMemberDto[];
  meta: ListMetaDto;
}

/**
 * The tenant's members, oldest membership first, for its members and owners
 * (403 1004 for anyone else, 404 1062 for an unknown tenant). A page past any
 * table we could hold is asked for as an empty one.
 */
@Injectable()
export class ListMembersUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly team: TeamClient,
  ) {}

  async execute(command: ListMembersCommand): Promise<MemberPage> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    const offset = pageOffsetOf(command.page) ?? Number.MAX_SAFE_INTEGER;
    const { totalCount, members } = await this.team.listMembers({ tenantID: scope.tenantID, role: command.role, offset, limit: command.page.perPage });
    return {
      data: members.map((member) => ({ ...member, tenantID: scope.tenantID })),
      meta: listMeta(command.page, totalCount, members.length),
    };
  }
}
