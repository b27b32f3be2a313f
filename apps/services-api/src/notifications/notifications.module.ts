import { Module } from '@nestjs/common';
import { NotificationCountsRepository } from './notification-counts.repository';
import { NotificationsController } from './notifications.controller';

@Module({ controllers: [NotificationsController], providers: [NotificationCountsRepository] })
export class NotificationsModule {}
