import { IsUUID } from 'class-validator';
import { defineMessage } from '../message';

/**
 * Ends an operator's membership of a tenant. The caller has checked that the
 * actor owns the tenant. 404 1990 for an operator who is not a member, 409
 * 1991 for the last owner.
 */
export class RemoveMemberPayload {
  @IsUUID('all')
  tenantID!: string;

  /** The owner who asks: core-tenants checks again, under the tenant's lock, that they still own it (else 403 1004). */
  @IsUUID('all')
  actorOperatorID!: string;

  @IsUUID('all')
  operatorID!: string;
}

export interface RemoveMemberReply {
  removed: true;
}

export const RemoveMember = defineMessage<RemoveMemberPayload, RemoveMemberReply>('members.remove', RemoveMemberPayload);
