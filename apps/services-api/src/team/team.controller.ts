import { Body, Controller, Delete, Get, Param, Patch, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiPartialContentResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, OperatorPrincipal } from '@platform/auth';
import type { MemberRole } from '@platform/contracts';
import { ApiErrors, pageRequestOf, pageStatus, TenantParams } from '@platform/http-common';
import type { FastifyReply } from 'fastify';
import { ChangeMemberRoleUseCase } from './change-member-role.use-case';
import { ListMembersUseCase } from './list-members.use-case';
import { ListPendingInvitationsUseCase } from './list-pending-invitations.use-case';
import { RemoveMemberUseCase } from './remove-member.use-case';
import { RevokeInvitationUseCase } from './revoke-invitation.use-case';
import {
  InvitationParams,
  ListMembersQuery,
  ListPendingInvitationsQuery,
  MemberParams,
  MemberRoleBody,
  PendingInvitationListResponse,
  RemovedMemberResponse,
  RevokedInvitationResponse,
  TenantMemberListResponse,
  TenantMemberResponse,
} from './team.dto';

/**
 * Team management (docs/team.md): a tenant's members and pending
 * invitations. core-tenants owns memberships and invitations and is asked
 * over the transport; access is checked here first.
 */
@ApiTags('Operators')
@Controller('v1/tenants/:tenantID/operators')
export class TeamController {
  constructor(
    private readonly listing: ListMembersUseCase,
    private readonly roleChange: ChangeMemberRoleUseCase,
    private readonly removal: RemoveMemberUseCase,
    private readonly pendingInvitations: ListPendingInvitationsUseCase,
    private readonly revocation: RevokeInvitationUseCase,
  ) {}

  @Get()
  @Auth('operator')
  @ApiOperation({
    operationId: 'listTenantMembers',
    summary: "List the tenant's members",
    description:
      'Members and owners may read (else 403 1004). Each member with their role and when they joined, oldest first; ' +
      'filter by role; 206 while more pages exist.',
  })
  @ApiErrors('TenantNotFound', 'InternalServiceTimeout')
  @ApiOkResponse({ type: TenantMemberListResponse })
  @ApiPartialContentResponse({ type: TenantMemberListResponse, description: 'More pages exist' })
  async list(
    @CurrentPrincipal() principal: OperatorPrincipal,
    @Param() params: TenantParams,
    @Query() query: ListMembersQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TenantMemberListResponse> {
    const page = await this.listing.execute({ principal, tenantID: params.tenantID, page: pageRequestOf(query), role: query.role as MemberRole | undefined });
    void reply.status(pageStatus(page.meta));
    return page;
  }

  /** Declared before `:operatorID` so that `invitations` is never read as an operator id. */
  @Get('invitations')
  @Auth('operator')
  @ApiOperation({
    operationId: 'listPendingInvitations',
    summary: "List the tenant's pending invitations",
    description: 'Owners only (else 403 1004). Invitations neither accepted, expired nor revoked, newest first; 206 while more pages exist.',
  })
  @ApiErrors('TenantNotFound', 'InternalServiceTimeout')
  @ApiOkResponse({ type: PendingInvitationListResponse })
  @ApiPartialContentResponse({ type: PendingInvitationListResponse, description: 'More pages exist' })
  async listInvitations(
    @CurrentPrincipal() principal: OperatorPrincipal,
    @Param() params: TenantParams,
    @Query() query: ListPendingInvitationsQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PendingInvitationListResponse> {
    const page = await this.pendingInvitations.execute({ principal, tenantID: params.tenantID, page: pageRequestOf(query) });
    void reply.status(pageStatus(page.meta));
    return page;
  }

  @Delete('invitations/:invitationID')
  @Auth('operator')
  @ApiOperation({
    operationId: 'revokeInvitation',
    summary: 'Revoke a pending invitation',
    description:
      'Owners only (else 403 1004). The invitation is withdrawn: its token no longer signs up or joins (400 1002 naming ' +
      'invitationToken, as for an unknown token). 404 1992 when the tenant has no such unaccepted invitation.',
  })
  @ApiErrors('TenantNotFound', 'InvitationNotFound', 'InternalServiceTimeout')
  @ApiOkResponse({ type: RevokedInvitationResponse })
  async revokeInvitation(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: InvitationParams): Promise<RevokedInvitationResponse> {
    return { data: await this.revocation.execute({ principal, tenantID: params.tenantID, invitationID: params.invitationID }) };
  }

  @Patch(':operatorID')
  @Auth('operator')
  @ApiOperation({
    operationId: 'changeMemberRole',
    summary: "Change a member's role",
    description:
      'Owners only (else 403 1004). 404 1990 for an operator who is not a member; 409 1991 when it would leave the tenant ' +
      'without an owner (also when two owners demote each other at once: one of them succeeds). Takes effect on the ' +
      "member's next request.",
  })
  @ApiErrors('TenantNotFound', 'MemberNotFound', 'LastOwner', 'InternalServiceTimeout')
  @ApiOkResponse({ type: TenantMemberResponse })
  async changeRole(
    @CurrentPrincipal() principal: OperatorPrincipal,
    @Param() params: MemberParams,
    @Body() body: MemberRoleBody,
  ): Promise<TenantMemberResponse> {
    return { data: await this.roleChange.execute({ principal, tenantID: params.tenantID, operatorID: params.operatorID, role: body.role as MemberRole }) };
  }

  @Delete(':operatorID')
  @Auth('operator')
  @ApiOperation({
    operationId: 'removeMember',
    summary: 'Remove a member from the tenant',
    description:
      'Owners only (else 403 1004), their own membership included while another owner remains; a member cannot leave on ' +
      'their own. 404 1990 for an operator who is not a member, 409 1991 for the last owner. The removed operator\'s next ' +
      'request to the tenant is refused (403 1004) on every replica, though their token is still valid.',
  })
  @ApiErrors('TenantNotFound', 'MemberNotFound', 'LastOwner', 'InternalServiceTimeout')
  @ApiOkResponse({ type: RemovedMemberResponse })
  async remove(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: MemberParams): Promise<RemovedMemberResponse> {
    return { data: await this.removal.execute({ principal, tenantID: params.tenantID, operatorID: params.operatorID }) };
  }
}
