import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '@platform/scheduling';
import { MailProvider } from '../../../../mail/mail.provider';
import { NOTIFICATION_MAILS_SETTINGS, NotificationMailsSettings } from '../notification-mails-settings';
import { renderNotificationMail } from './notification-mail.template';
import { ClaimedMailBatch, NotificationMailsRepository } from './notification-mails.repository';

/** Items one mail covers at most; the rest wait for the next interval. */
const ITEMS_PER_MAIL = 200;
/** How long a claimed batch is this replica's: well past an SMTP delivery's time limits (connection, greeting, socket). */
const LEASE_MS = 5 * 60_000;
/** The longest wait between two attempts at a mail SMTP keeps refusing. */
const MAX_RETRY_DELAY_MS = 60 * 60_000;

/**
 * One attempt at the most overdue batch (docs/notifications.md): claims it,
 * reads its items as of now (those read since, or of a kind no longer
 * wanted, are dropped unsent), sends one mail listing the rest, then deletes
 * the items it covered. At least once: when SMTP refuses, every item stays
 * and the batch is due again after a doubling delay; a replica that stops
 * between the send and the delete leaves the lease to lapse, and the mail
 * may go out twice.
 */
@Injectable()
export class SendNotificationMailUseCase {
  private readonly logger = new Logger(SendNotificationMailUseCase.name);

  constructor(
    private readonly mails: NotificationMailsRepository,
    private readonly mailer: MailProvider,
    private readonly clock: Clock,
    @Inject(NOTIFICATION_MAILS_SETTINGS) private readonly settings: NotificationMailsSettings,
  ) {}

  /** False when no batch was due. */
  async execute(): Promise<boolean> {
    const now = this.clock.now();
    const batch = await this.mails.claim(now, new Date(now.getTime() + LEASE_MS), this.settings.intervalSeconds);
    if (!batch) return false;
    await this.deliver(batch);
    return true;
  }

  private async deliver(batch: ClaimedMailBatch): Promise<void> {
    const recipient = await this.mails.recipient(batch);
    if (!recipient) return this.mails.discard(batch);
    const items = await this.mails.waiting(batch, ITEMS_PER_MAIL);
    const deliverable = items.filter((item) => item.deliverable);
    if (deliverable.length > 0) {
      const mail = renderNotificationMail({ firstname: recipient.firstname, tenantName: recipient.tenantName, events: deliverable });
      try {
        await this.mailer.send(recipient.email, mail);
      } catch (error) {
        const retryAt = new Date(this.clock.now().getTime() + this.retryDelayMs(batch.failures));
        this.logger.warn({ err: error, tenantID: batch.tenantID, failures: batch.failures + 1 }, 'notification mail not sent; retrying later');
        return this.mails.failed(batch, retryAt);
      }
    }
    await this.mails.finish(
      batch,
      items.map((item) => item.id),
      this.clock.now(),
    );
  }

  private retryDelayMs(failures: number): number {
    return Math.min(this.settings.retryDelaySeconds * 1000 * 2 ** Math.min(failures, 20), MAX_RETRY_DELAY_MS);
  }
}
