import { IsString, IsUUID, Length } from 'class-validator';
import { defineMessage } from '../message';

/** An operator who already has an account joins the tenant that invited their address, as a member. */
export class AcceptInvitationPayload {
  @IsUUID('all')
  operatorID!: string;

  @IsString()
  @Length(64, 64)
  tokenHash!: string;
}

/** `unusable`: unknown, used, expired, for another address, or an unknown operator (nothing written). */
export type AcceptInvitationReply = { outcome: 'accepted'; tenantID: string; role: 'member' } | { outcome: 'unusable' };

export const AcceptInvitation = defineMessage<AcceptInvitationPayload, AcceptInvitationReply>('invitations.accept', AcceptInvitationPayload);
