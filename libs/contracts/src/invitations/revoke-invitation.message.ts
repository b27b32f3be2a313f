import { IsUUID } from 'class-validator';
import { defineMessage } from '../message';

/**
 * An owner revokes an invitation of their tenant that was not accepted: it is
 * withdrawn like one whose mail could not be queued, so its token can no
 * longer be used. 404 1992 when the tenant has no such unaccepted invitation.
 */
export class RevokeInvitationPayload {
  @IsUUID('all')
  tenantID!: string;

  @IsUUID('all')
  invitationID!: string;
}

export interface RevokeInvitationReply {
  revoked: true;
}

export const RevokeInvitation = defineMessage<RevokeInvitationPayload, RevokeInvitationReply>('invitations.revoke', RevokeInvitationPayload);
