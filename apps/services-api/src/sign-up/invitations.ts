import { AppException } from '@platform/errors';

/** The one answer for an invitation that cannot be used, whatever the reason. */
export const invalidInvitation = (received: string) =>
  AppException.validation([{ field: 'invitationToken', received, allowed: 'an unused, unexpired invitation token for operatorEmail' }]);
