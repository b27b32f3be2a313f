import { AppException } from '@platform/errors';
import type { InvitationRow } from './operators.repository';

/** The one answer for an invitation that cannot be used, whatever the reason. */
export const invalidInvitation = (received: string) =>
  AppException.validation([{ field: 'invitationToken', received, allowed: 'an unused, unexpired invitation token for operatorEmail' }]);

/** Unused, unexpired and for this address. */
export function usableInvitation(invitation: InvitationRow | undefined, email: string, now: number): invitation is InvitationRow {
  return invitation !== undefined && invitation.acceptedAt === null && invitation.email === email && invitation.expiresAt.getTime() > now;
}
