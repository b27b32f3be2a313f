import { IsInt, IsUUID, Max, Min } from 'class-validator';
import { defineMessage } from '../message';

/** One page of a tenant's pending invitations (not accepted, not expired), newest first. The caller has checked ownership. */
export class ListPendingInvitationsPayload {
  @IsUUID('all')
  tenantID!: string;

  @IsInt()
  @Min(0)
  offset!: number;

  @IsInt()
  @Min(1)
  @Max(200)
  limit!: number;
}

/** Times are ISO 8601; `invitedBy` is null when the inviter's account is gone. */
export interface PendingInvitation {
  invitationID: string;
  operatorEmail: string;
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
}

export interface ListPendingInvitationsReply {
  totalCount: number;
  invitations: PendingInvitation[];
}

export const ListPendingInvitations = defineMessage<ListPendingInvitationsPayload, ListPendingInvitationsReply>(
  'invitations.list-pending',
  ListPendingInvitationsPayload,
);
