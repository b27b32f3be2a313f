import { IsIn, IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { defineMessage } from '../message';

export const MEMBER_ROLES = ['owner', 'member'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** One page of a tenant's members, oldest membership first. The caller has checked the reader's membership. */
export class ListMembersPayload {
  @IsUUID('all')
  tenantID!: string;

  @IsOptional()
  @IsIn(MEMBER_ROLES)
  role?: MemberRole;

  @IsInt()
  @Min(0)
  offset!: number;

  @IsInt()
  @Min(1)
  @Max(200)
  limit!: number;
}

/** A member as the API shows it; `joinedAt` is ISO 8601. */
export interface Member {
  operatorID: string;
  operatorEmail: string;
  operatorFirstname: string;
  operatorLastname: string | null;
  role: MemberRole;
  joinedAt: string;
}

/** `members` is empty when `offset` is past `totalCount`. */
export interface ListMembersReply {
  totalCount: number;
  members: Member[];
}

export const ListMembers = defineMessage<ListMembersPayload, ListMembersReply>('members.list', ListMembersPayload);
