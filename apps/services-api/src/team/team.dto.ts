import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { MEMBER_ROLES } from '@platform/contracts';
import { IsOneOf, ListMetaDto, PaginationQuery, TenantParamsWith } from '@platform/http-common';
import { IsOptional } from 'class-validator';

/** Members and pending invitations are paged like the other lists, up to 200 a page. */
export const MAX_TEAM_PER_PAGE = 200;

export class MemberParams extends TenantParamsWith('operatorID') {}

export class InvitationParams extends TenantParamsWith('invitationID') {}

export class ListMembersQuery extends PaginationQuery(MAX_TEAM_PER_PAGE) {
  @ApiPropertyOptional({ enum: MEMBER_ROLES, description: 'Only members with this role' })
  @IsOptional()
  @IsOneOf(MEMBER_ROLES)
  role?: string;
}

export class ListPendingInvitationsQuery extends PaginationQuery(MAX_TEAM_PER_PAGE) {}

export class MemberRoleBody {
  @ApiProperty({ enum: MEMBER_ROLES, description: 'The role the member gets' })
  @IsOneOf(MEMBER_ROLES)
  role!: string;
}

/** A member of the tenant: the operator, as sign-up names their fields, with their role. */
@ApiSchema({ name: 'TenantMember' })
export class TenantMemberDto {
  @ApiProperty({ format: 'uuid' })
  operatorID!: string;

  @ApiProperty({ format: 'uuid' })
  tenantID!: string;

  @ApiProperty({ example: 'ana@acme.com.br' })
  operatorEmail!: string;

  @ApiProperty({ example: 'Ana' })
  operatorFirstname!: string;

  @ApiProperty({ type: String, nullable: true, example: 'Souza' })
  operatorLastname!: string | null;

  @ApiProperty({ enum: MEMBER_ROLES })
  role!: string;

  @ApiProperty({ format: 'date-time', description: 'When the operator became a member (signed up as owner, or accepted an invitation)' })
  joinedAt!: string;
}

@ApiSchema({ name: 'TenantMemberList' })
export class TenantMemberListResponse {
  @ApiProperty({ type: [TenantMemberDto] })
  data!: TenantMemberDto[];

  @ApiProperty({ type: ListMetaDto })
  meta!: ListMetaDto;
}

export class TenantMemberResponse {
  @ApiProperty({ type: TenantMemberDto })
  data!: TenantMemberDto;
}

@ApiSchema({ name: 'RemovedMember' })
export class RemovedMemberDto {
  @ApiProperty({ format: 'uuid' })
  operatorID!: string;

  @ApiProperty({ format: 'uuid' })
  tenantID!: string;

  @ApiProperty({ enum: [true] })
  removed!: true;
}

export class RemovedMemberResponse {
  @ApiProperty({ type: RemovedMemberDto })
  data!: RemovedMemberDto;
}

/** An invitation neither accepted, expired nor revoked. */
@ApiSchema({ name: 'PendingInvitation' })
export class PendingInvitationDto {
  @ApiProperty({ format: 'uuid' })
  invitationID!: string;

  @ApiProperty({ format: 'uuid' })
  tenantID!: string;

  @ApiProperty({ example: 'bia@acme.com.br' })
  operatorEmail!: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The owner who invited; null once their account is gone' })
  invitedBy!: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  expiresAt!: string;
}

@ApiSchema({ name: 'PendingInvitationList' })
export class PendingInvitationListResponse {
  @ApiProperty({ type: [PendingInvitationDto] })
  data!: PendingInvitationDto[];

  @ApiProperty({ type: ListMetaDto })
  meta!: ListMetaDto;
}

@ApiSchema({ name: 'RevokedInvitation' })
export class RevokedInvitationDto {
  @ApiProperty({ format: 'uuid' })
  invitationID!: string;

  @ApiProperty({ format: 'uuid' })
  tenantID!: string;

  @ApiProperty({ enum: [true] })
  revoked!: true;
}

export class RevokedInvitationResponse {
  @ApiProperty({ type: RevokedInvitationDto })
  data!: RevokedInvitationDto;
}
