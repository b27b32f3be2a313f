import { IsIn, IsUUID } from 'class-validator';
import { defineMessage } from '../message';
import { Member, MEMBER_ROLES, MemberRole } from './list-members.message';

/**
 * Gives a member another role. The caller has checked that the actor owns the
 * tenant. 404 1990 for an operator who is not a member, 409 1991 when it
 * would leave the tenant without an owner.
 */
export class ChangeMemberRolePayload {
  @IsUUID('all')
  tenantID!: string;

  /** The owner who asks: core-tenants checks again, under the tenant's lock, that they still own it (else 403 1004). */
  @IsUUID('all')
  actorOperatorID!: string;

  @IsUUID('all')
  operatorID!: string;

  @IsIn(MEMBER_ROLES)
  role!: MemberRole;
}

/** The member with their new role; `changed` is false when they had it already (nothing recorded). */
export interface ChangeMemberRoleReply {
  member: Member;
  changed: boolean;
}

export const ChangeMemberRole = defineMessage<ChangeMemberRolePayload, ChangeMemberRoleReply>('members.change-role', ChangeMemberRolePayload);
