import { DynamicModule, Module } from '@nestjs/common';
import { measuredProvider, PlatformMetrics } from '@platform/observability';
import type { ServicesApiConfig } from '../../../config';
import { MailProvider } from '../../../mail/mail.provider';
import { SmtpMailProvider } from '../../../mail/smtp-mail.provider';
import { NotificationMailWorker } from './delivery/notification-mail.worker';
import { NotificationMailsRepository } from './delivery/notification-mails.repository';
import { SendNotificationMailUseCase } from './delivery/send-notification-mail.use-case';
import { NOTIFICATION_MAILS_SETTINGS, notificationMailsSettingsOf } from './notification-mails-settings';
import { GetNotificationPreferencesUseCase } from './preferences/get-notification-preferences.use-case';
import { NotificationPreferencesController } from './preferences/notification-preferences.controller';
import { NotificationPreferencesRepository } from './preferences/notification-preferences.repository';
import { SetNotificationPreferencesUseCase } from './preferences/set-notification-preferences.use-case';

/**
 * Notification mails (docs/notifications.md): each operator's preferences,
 * and the worker that mails what happened while they were offline or away.
 * The events are recorded by the conversation changes that cause them
 * (NotificationMailsRepository.record, in their transactions).
 */
@Module({})
export class NotificationMailsModule {
  static forRoot(config: ServicesApiConfig): DynamicModule {
    return {
      module: NotificationMailsModule,
      controllers: [NotificationPreferencesController],
      providers: [
        { provide: NOTIFICATION_MAILS_SETTINGS, useValue: notificationMailsSettingsOf(config) },
        {
          provide: MailProvider,
          useFactory: (metrics: PlatformMetrics) =>
            measuredProvider('email', new SmtpMailProvider({ url: config.SMTP_URL, from: config.EMAIL_FROM, timeoutMs: config.SMTP_TIMEOUT_MS }), metrics, { operations: ['send'] }),
          inject: [PlatformMetrics],
        },
        NotificationPreferencesRepository,
        GetNotificationPreferencesUseCase,
        SetNotificationPreferencesUseCase,
        NotificationMailsRepository,
        SendNotificationMailUseCase,
        NotificationMailWorker,
      ],
    };
  }
}
