import type { InvitationRow } from './operators.repository';

/** Unused, unexpired and for this address. */
export function usableInvitation(invitation: InvitationRow | undefined, email: string, now: number): invitation is InvitationRow {
  return invitation !== undefined && invitation.acceptedAt === null && invitation.email === email && invitation.expiresAt.getTime() > now;
}
