import { IsOptional, IsString, Length } from 'class-validator';
import { defineMessage } from '../message';

/**
 * Creates an operator whose address services-api has proven (by the mailed
 * code, or by an invitation named by its token's hash). The password arrives
 * hashed: the clear password never leaves services-api.
 */
export class RegisterOperatorPayload {
  /** Normalised (trimmed, lower-cased). */
  @IsString()
  @Length(3, 320)
  email!: string;

  /** Trimmed; may be empty. */
  @IsString()
  @Length(0, 200)
  firstname!: string;

  /** Trimmed; null when none was given. */
  @IsOptional()
  @IsString()
  @Length(1, 200)
  lastname!: string | null;

  @IsString()
  @Length(1, 200)
  passwordHash!: string;

  /** SHA-256 (hex) of the invitation token: the operator joins its tenant as a member, in the same transaction. */
  @IsOptional()
  @IsString()
  @Length(64, 64)
  invitationTokenHash?: string;
}

/**
 * `email-taken`: the address already has an account (nothing written).
 * `invitation-unusable`: the invitation is unknown, used, expired, for another
 * address, or the address already has an account (nothing written).
 */
export type RegisterOperatorReply = { outcome: 'registered'; operatorID: string } | { outcome: 'email-taken' } | { outcome: 'invitation-unusable' };

export const RegisterOperator = defineMessage<RegisterOperatorPayload, RegisterOperatorReply>('operators.register', RegisterOperatorPayload);
