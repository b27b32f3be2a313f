import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MEMBER_ROLES } from '@platform/contracts';
import { IsOneOf, ListMeta, PaginationQuery, TenantParamsWith } from '@platform/http-common';
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
export class TenantMember {
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

export class TenantMemberList {
  @ApiProperty({ type: [TenantMember] })
  data!: TenantMember[];

  @ApiProperty({ type: ListMeta })
  meta!: ListMeta;
}

export class TenantMemberResponse {
  @ApiProperty({ type: TenantMember })
  data!: TenantMember;
}

export class RemovedMember {
  @ApiProperty({ format: 'uuid' })
  operatorID!: string;

  @ApiProperty({ format: 'uuid' })
  tenantID!: string;

  @ApiProperty({ enum: [true] })
  removed!: true;
}

export class RemovedMemberResponse {
  @ApiProperty({ type: RemovedMember })
  data!: RemovedMember;
}

/** An invitation neither accepted, expired nor revoked. */
export class PendingInvitation {
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

export class PendingInvitationList {
  @ApiProperty({ type: [PendingInvitation] })
  data!: PendingInvitation[];

  @ApiProperty({ type: ListMeta })
  meta!: ListMeta;
}

export class RevokedInvitation {
  @ApiProperty({ format: 'uuid' })
  invitationID!: string;

  @ApiProperty({ format: 'uuid' })
  tenantID!: string;

  @ApiProperty({ enum: [true] })
  revoked!: true;
}

export class RevokedInvitationResponse {
  @ApiProperty({ type: RevokedInvitation })
  data!: RevokedInvitation;
}
