import { Inject, Injectable } from '@nestjs/common';
import { DueWorkLoop } from '@platform/scheduling';
import { CONVERSATIONS_SETTINGS, ConversationsSettings } from '../conversations-settings';
import { FanOutNotificationsUseCase } from './fan-out-notifications.use-case';

/**
 * Finishes the notification fan-outs the conversation routes record, off
 * their request path: a queued session's inbound message writes one
 * `notification_fanouts` row, and this loop turns it into one notification
 * per operator of the tenant (one statement). Nudged after each commit that
 * recorded one; polls for the rest (another replica's, or left by a stop).
 */
@Injectable()
export class NotificationFanoutWorker extends DueWorkLoop {
  constructor(
    private readonly fanOut: FanOutNotificationsUseCase,
    @Inject(CONVERSATIONS_SETTINGS) settings: ConversationsSettings,
  ) {
    super(settings.fanoutPollMs, 'notification fan-out');
  }

  protected attemptDue(): Promise<boolean> {
    return this.fanOut.execute();
  }
}
