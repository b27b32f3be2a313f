import type { Transporter } from 'nodemailer';
import { MailProvider, RenderedMail } from './mail.provider';

export interface SmtpSettings {
  url: string;
  from: string;
  timeoutMs: number;
}

/** The real adapter: nodemailer over SMTP (any provider's SMTP URL, or the local sink). */
export class SmtpMailProvider extends MailProvider {
  /**
   * Made, with nodemailer (about 40 modules), by the first mail: a replica
   * that sends none (the mail worker idle) does not pay for it at start-up.
   */
  private transport: Transporter | undefined;

  constructor(private readonly settings: SmtpSettings) {
    super();
  }

  async send(to: string, mail: RenderedMail): Promise<void> {
    await this.smtp().sendMail({ from: this.settings.from, to, subject: mail.subject, text: mail.text, html: mail.html });
  }

  close(): void {
    this.transport?.close();
  }

  private smtp(): Transporter {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously, to keep it off the idle heap and start-up
    this.transport ??= (require('nodemailer') as typeof import('nodemailer')).createTransport({
      url: this.settings.url,
      connectionTimeout: this.settings.timeoutMs,
      greetingTimeout: this.settings.timeoutMs,
      socketTimeout: this.settings.timeoutMs,
    });
    return this.transport;
  }
}
