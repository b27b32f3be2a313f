import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { ConversationEvents } from '../conversation-events';
import { NotificationCountEvents } from '../notifications/notification-count-events';
import { NotificationFanoutsRepository } from '../notifications/notification-fanouts.repository';
import { refuseUnseen } from './session-access';
import { SessionsRepository } from './sessions.repository';

export interface ReadSessionCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  sessionID: string;
}

/**
 * An operator who may see a session has read it: their unread notifications
 * of it are marked read (operation 14 moves), with `notifications.read` and
 * their `notifications.counts` when any was unread; reading again changes
 * nothing and emits nothing.
 */
@Injectable()
export class ReadSessionUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly sessions: SessionsRepository,
    private readonly fanouts: NotificationFanoutsRepository,
    private readonly events: ConversationEvents,
    private readonly countEvents: NotificationCountEvents,
  ) {}

  async execute(command: ReadSessionCommand): Promise<{ markedRead: number }> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    const { session } = refuseUnseen(command.principal, await this.sessions.view(scope, command.sessionID));
    const { operatorID } = command.principal;
    const markedRead = await this.fanouts.transaction(async (runner) => {
      const marked = await this.fanouts.markRead(runner, scope, session.sessionID, operatorID);
      if (marked > 0) {
        // Reads of two sessions by one operator share no row: the operator's lock orders their `operator:` events.
        await this.countEvents.hold(runner, scope, [operatorID]);
        await this.events.notificationsRead(runner, scope, { operatorID, sessionID: session.sessionID, inboxID: session.inboxID, markedRead: marked });
        await this.countEvents.announce(runner, scope, [operatorID]);
      }
      return marked;
    });
    return { markedRead };
  }
}
