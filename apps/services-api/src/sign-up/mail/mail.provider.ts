import { RenderedMail } from './templates';

/** The e-mail provider, as sign-up sees it. */
export abstract class MailProvider {
  abstract send(to: string, mail: RenderedMail): Promise<void>;
  abstract close(): void;
}
