import { IsString, Length } from 'class-validator';
import { defineMessage } from '../message';

/** Whether an invitation is usable by an address: unused, unexpired and for that address. Writes nothing. */
export class CheckInvitationPayload {
  @IsString()
  @Length(64, 64)
  tokenHash!: string;

  /** Normalised (trimmed, lower-cased). */
  @IsString()
  @Length(3, 320)
  email!: string;
}

export interface CheckInvitationReply {
  usable: boolean;
}

export const CheckInvitation = defineMessage<CheckInvitationPayload, CheckInvitationReply>('invitations.check', CheckInvitationPayload);
