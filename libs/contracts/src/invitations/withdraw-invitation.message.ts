import { IsUUID } from 'class-validator';
import { defineMessage } from '../message';

/** Deletes an invitation that was never accepted: its mail could not be queued. */
export class WithdrawInvitationPayload {
  @IsUUID('all')
  invitationID!: string;
}

export interface WithdrawInvitationReply {
  withdrawn: boolean;
}

export const WithdrawInvitation = defineMessage<WithdrawInvitationPayload, WithdrawInvitationReply>('invitations.withdraw', WithdrawInvitationPayload);
