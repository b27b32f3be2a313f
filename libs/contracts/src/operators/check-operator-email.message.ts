import { IsString, Length } from 'class-validator';
import { defineMessage } from '../message';

/** Whether an address already has an account (the sign-up mail job decides with it whether a code is still due). */
export class CheckOperatorEmailPayload {
  /** Normalised (trimmed, lower-cased). */
  @IsString()
  @Length(3, 320)
  email!: string;
}

export interface CheckOperatorEmailReply {
  hasAccount: boolean;
}

export const CheckOperatorEmail = defineMessage<CheckOperatorEmailPayload, CheckOperatorEmailReply>('operators.check-email', CheckOperatorEmailPayload);
