import { Inject, Injectable } from '@nestjs/common';
import { DueWorkLoop } from '@platform/scheduling';
import { NOTIFICATION_MAILS_SETTINGS, NotificationMailsSettings } from '../notification-mails-settings';
import { SendNotificationMailUseCase } from './send-notification-mail.use-case';

/**
 * Sends the notification mails whose interval has passed, one batch per
 * attempt, shared by the replicas through leased SKIP LOCKED claims. Never
 * nudged: a batch is due an interval after its first event, so polling
 * every NOTIFICATION_MAIL_POLL_MS is on time enough.
 */
@Injectable()
export class NotificationMailWorker extends DueWorkLoop {
  constructor(
    private readonly send: SendNotificationMailUseCase,
    @Inject(NOTIFICATION_MAILS_SETTINGS) settings: NotificationMailsSettings,
  ) {
    super(settings.pollMs, 'notification mails');
  }

  protected attemptDue(): Promise<boolean> {
    return this.send.execute();
  }
}
