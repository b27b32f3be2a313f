import type { WithHeaders } from '../../jobs/job-headers';
import type { MailLanguage } from './mail-language';

/** The pg-boss queue of sign-up mails. */
export const SIGN_UP_MAIL_QUEUE = 'sign-up-mail';

/**
 * A mail to deliver. Secrets (the code, the invitation token) travel sealed
 * (SignUpKeys.seal): the job table never holds them in clear.
 */
export type SignUpMailJob = (VerificationMailJob | InvitationMailJob) & WithHeaders;

export interface VerificationMailJob {
  kind: 'verification';
  to: string;
  language: MailLanguage;
  firstname: string;
  sealedCode: string;
  /** Identifies the request in the verification store: a later request supersedes this mail. */
  nonce: string;
  /** Clock time (ms) after which the code is useless, and so is the mail. */
  expiresAt: number;
}

export interface InvitationMailJob {
  kind: 'invitation';
  to: string;
  language: MailLanguage;
  invitationID: string;
  tenantName: string;
  inviterName: string | null;
  sealedToken: string;
  expiresAt: number;
}
