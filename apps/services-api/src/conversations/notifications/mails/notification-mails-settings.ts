import type { ServicesApiConfig } from '../../../config';

/** The notification mails' pace (docs/notifications.md, docs/configuration.md). */
export interface NotificationMailsSettings {
  /** Seconds a batch gathers events before its mail: at most one mail per operator and tenant per interval. */
  intervalSeconds: number;
  /** How often the worker looks for due batches. */
  pollMs: number;
  /** Seconds before the first retry of a mail SMTP refused; doubles with each failure. */
  retryDelaySeconds: number;
}

export const NOTIFICATION_MAILS_SETTINGS = Symbol('NOTIFICATION_MAILS_SETTINGS');

export function notificationMailsSettingsOf(config: ServicesApiConfig): NotificationMailsSettings {
  return {
    intervalSeconds: config.NOTIFICATION_MAIL_INTERVAL_SECONDS,
    pollMs: config.NOTIFICATION_MAIL_POLL_MS,
    retryDelaySeconds: config.EMAIL_RETRY_DELAY_SECONDS,
  };
}
