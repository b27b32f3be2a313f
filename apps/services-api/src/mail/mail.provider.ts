/** One mail, rendered in its language: what a provider sends. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** The e-mail provider that sign-up's and the notification mails' senders share. */
export abstract class MailProvider {
  abstract send(to: string, mail: RenderedMail): Promise<void>;
  abstract close(): void;
}
