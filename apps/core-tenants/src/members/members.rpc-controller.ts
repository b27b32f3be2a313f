import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ApiExcludeController } from '@nestjs/swagger';
import { trustedTenantScope } from '@platform/auth';
import {
  ChangeMemberRole,
  ChangeMemberRolePayload,
  ChangeMemberRoleReply,
  ListMembers,
  ListMembersPayload,
  ListMembersReply,
  RemoveMember,
  RemoveMemberPayload,
  RemoveMemberReply,
} from '@platform/contracts';
import { canonicalUuid } from '@platform/http-common';
import { ChangeMemberRoleUseCase } from './change-member-role.use-case';
import { ListMembersUseCase } from './list-members.use-case';
import { RemoveMemberUseCase } from './remove-member.use-case';

/** A tenant's members over the transport: services-api has checked the reader's membership or the actor's ownership. */
// Transport handlers, no HTTP route: their payloads are no part of the OpenAPI document.
@ApiExcludeController()
@Controller()
export class MembersRpcController {
  constructor(
    private readonly listing: ListMembersUseCase,
    private readonly roleChange: ChangeMemberRoleUseCase,
    private readonly removal: RemoveMemberUseCase,
  ) {}

  @MessagePattern(ListMembers.pattern)
  list(@Payload() payload: ListMembersPayload): Promise<ListMembersReply> {
    return this.listing.execute({ scope: trustedTenantScope(canonicalUuid(payload.tenantID)), role: payload.role, offset: payload.offset, limit: payload.limit });
  }

  @MessagePattern(ChangeMemberRole.pattern)
  changeRole(@Payload() payload: ChangeMemberRolePayload): Promise<ChangeMemberRoleReply> {
    return this.roleChange.execute({
      scope: trustedTenantScope(canonicalUuid(payload.tenantID)),
      actorOperatorID: canonicalUuid(payload.actorOperatorID),
      operatorID: canonicalUuid(payload.operatorID),
      role: payload.role,
    });
  }

  @MessagePattern(RemoveMember.pattern)
  remove(@Payload() payload: RemoveMemberPayload): Promise<RemoveMemberReply> {
    return this.removal.execute({
      scope: trustedTenantScope(canonicalUuid(payload.tenantID)),
      actorOperatorID: canonicalUuid(payload.actorOperatorID),
      operatorID: canonicalUuid(payload.operatorID),
    });
  }
}
