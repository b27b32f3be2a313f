import { IsISO8601, IsString, IsUUID, Length } from 'class-validator';
import { defineMessage } from '../message';

/**
 * Records a tenant's invitation of an address. The caller has checked that
 * the inviter owns the tenant, and chose the invitation's id: asking again
 * with the same id records nothing more, so a retry after a lost reply is safe.
 */
export class CreateInvitationPayload {
  @IsUUID('all')
  invitationID!: string;

  @IsUUID('all')
  tenantID!: string;

  /** Normalised (trimmed, lower-cased). */
  @IsString()
  @Length(3, 320)
  email!: string;

  /** SHA-256 (hex) of the token; the token itself never reaches core-tenants. */
  @IsString()
  @Length(64, 64)
  tokenHash!: string;

  @IsUUID('all')
  invitedBy!: string;

  @IsISO8601({ strict: true })
  expiresAt!: string;
}

/** What the invitation mail names: the tenant and the inviter's first name. */
export interface CreateInvitationReply {
  invitationID: string;
  tenantName: string;
  inviterName: string | null;
}

export const CreateInvitation = defineMessage<CreateInvitationPayload, CreateInvitationReply>('invitations.create', CreateInvitationPayload);
