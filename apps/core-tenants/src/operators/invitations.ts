import type { WebhookEvent } from '@platform/webhooks';
import type { InvitationRow } from './operators.repository';

/** Unused, unexpired and for this address. */
export function usableInvitation(invitation: InvitationRow | undefined, email: string, now: number): invitation is InvitationRow {
  return invitation !== undefined && invitation.acceptedAt === null && invitation.email === email && invitation.expiresAt.getTime() > now;
}

/** The webhook event of an accepted invitation: its subject is the new member, like their later role changes and removal. */
export function invitationAccepted(invitationID: string, operatorID: string): WebhookEvent<'invitation.accepted'> {
  return { type: 'invitation.accepted', subject: `member:${operatorID}`, data: { invitationID, operatorID, role: 'member' } };
}
