import { Injectable } from '@nestjs/common';
import { PluginConnectionPrincipal, TenantAccessService } from '@platform/auth';
import { ConversationMessageDto, DeliveryStatus, deliveryStatusMove } from '@platform/conversations';
import { AppException } from '@platform/errors';
import { ConversationEvents } from '../conversation-events';
import { maySeeSession } from '../sessions/session-access';
import { SessionsRepository } from '../sessions/sessions.repository';
import { MessagesRepository } from './messages.repository';

export interface ChangeDeliveryStatusCommand {
  principal: PluginConnectionPrincipal;
  tenantID: string;
  messageID: string;
  deliveryStatus: DeliveryStatus;
}

/**
 * The inbox's plugin connection reports an outbound message's delivery
 * (docs/conversations.md#message-status): forward moves are stored with
 * `message.statusChanged`, a repeat of the current status answers the
 * message unchanged (channels redeliver receipts), a backward move is 409
 * 1947. An inbound message, or one of another connection's inbox, is 404 1946.
 * Under the session's lock, so the session's events stay in commit order.
 */
@Injectable()
export class ChangeDeliveryStatusUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly sessions: SessionsRepository,
    private readonly messages: MessagesRepository,
    private readonly events: ConversationEvents,
  ) {}

  async execute(command: ChangeDeliveryStatusCommand): Promise<ConversationMessageDto> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    const found = await this.messages.byID(scope, command.messageID);
    if (!found) throw new AppException('MessageNotFound');
    return this.messages.transaction(async (runner) => {
      const view = await this.sessions.lockedView(runner, scope, found.message.sessionID);
      if (!view || !maySeeSession(command.principal, view)) throw new AppException('MessageNotFound');
      const current = (await this.messages.byID(scope, command.messageID, runner))!.message;
      if (current.messageDirection !== 'outbound' || current.deliveryStatus === null) throw new AppException('MessageNotFound');
      const move = deliveryStatusMove(current.deliveryStatus, command.deliveryStatus);
      if (move === 'same') return current;
      if (move === 'refused') throw new AppException('MessageStatusRefused');
      const changed = await this.messages.setDeliveryStatus(runner, scope, current.messageID, command.deliveryStatus);
      const after = (await this.sessions.view(scope, view.session.sessionID, runner))!;
      await this.events.session(runner, scope, 'message.statusChanged', after, { message: changed.message, previousStatus: current.deliveryStatus });
      return changed.message;
    });
  }
}
