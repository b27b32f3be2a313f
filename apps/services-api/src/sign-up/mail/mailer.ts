import { createTransport, Transporter } from 'nodemailer';
import { RenderedMail } from './templates';

/** The e-mail provider, as sign-up sees it. */
export abstract class Mailer {
  abstract send(to: string, mail: RenderedMail): Promise<void>;
  abstract close(): void;
}

export interface SmtpSettings {
  url: string;
  from: string;
  timeoutMs: number;
}

/** The real adapter: nodemailer over SMTP (any provider's SMTP URL, or the local sink). */
export class SmtpMailer extends Mailer {
  private readonly transport: Transporter;

  constructor(private readonly settings: SmtpSettings) {
    super();
    this.transport = createTransport({
      url: settings.url,
      connectionTimeout: settings.timeoutMs,
      greetingTimeout: settings.timeoutMs,
      socketTimeout: settings.timeoutMs,
    });
  }

  async send(to: string, mail: RenderedMail): Promise<void> {
    await this.transport.sendMail({ from: this.settings.from, to, subject: mail.subject, text: mail.text, html: mail.html });
  }

  close(): void {
    this.transport.close();
  }
}
