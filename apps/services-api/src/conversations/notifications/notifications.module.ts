import { Module } from '@nestjs/common';
import { ListNotificationCountsUseCase } from './list-notification-counts.use-case';
import { NotificationCountsRepository } from './notification-counts.repository';
import { NotificationsController } from './notifications.controller';

@Module({ controllers: [NotificationsController], providers: [NotificationCountsRepository, ListNotificationCountsUseCase] })
export class NotificationsModule {}
