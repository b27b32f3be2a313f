import { Injectable } from '@nestjs/common';
import { Principal, TenantAccessService } from '@platform/auth';
import { listMeta, ListMetaDto, pageOffsetOf, PageRequest } from '@platform/http-common';
import type { PendingInvitationDto } from './team.dto';
import { TeamClient } from './team.client';

export interface ListPendingInvitationsCommand {
  principal: Principal;
  tenantID: string;
  page: PageRequest;
}

export interface PendingInvitationPage {
  data: PendingInvitationDto[];
  meta: ListMetaDto;
}

/** The tenant's pending invitations, newest first, for its owners only (403 1004 otherwise, 404 1062 for an unknown tenant). */
@Injectable()
export class ListPendingInvitationsUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly team: TeamClient,
  ) {}

  async execute(command: ListPendingInvitationsCommand): Promise<PendingInvitationPage> {
    const scope = await this.access.require(command.principal, command.tenantID, { ownerOnly: true, tenantNotFoundIs404: true });
    const offset = pageOffsetOf(command.page) ?? Number.MAX_SAFE_INTEGER;
    const { totalCount, invitations } = await this.team.listPendingInvitations({ tenantID: scope.tenantID, offset, limit: command.page.perPage });
    return {
      data: invitations.map((invitation) => ({ ...invitation, tenantID: scope.tenantID })),
      meta: listMeta(command.page, totalCount, invitations.length),
    };
  }
}
