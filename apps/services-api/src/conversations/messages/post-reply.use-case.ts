import { Inject, Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import type { ConversationMessageDto } from '@platform/conversations';
import { AppException } from '@platform/errors';
import type { IdempotencyKeyClaim } from '@platform/idempotency';
import { ConversationEvents } from '../conversation-events';
import { CONVERSATIONS_SETTINGS, ConversationsSettings } from '../conversations-settings';
import { refuseUnseen } from '../sessions/session-access';
import { SessionsRepository } from '../sessions/sessions.repository';
import { refuseLongContent } from './message-content';
import { MessagesRepository } from './messages.repository';

export interface PostReplyCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  sessionID: string;
  content: string;
  idempotency: IdempotencyKeyClaim;
}

/**
 * An operator who may see the session replies (docs/conversations.md#messages-out):
 * stored outbound and pending, for the inbox's plugin connection to send and
 * report on, with `message.created`, under the session's lock. A closed
 * session refuses (409 1942).
 */
@Injectable()
export class PostReplyUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly sessions: SessionsRepository,
    private readonly messages: MessagesRepository,
    private readonly events: ConversationEvents,
    @Inject(CONVERSATIONS_SETTINGS) private readonly settings: ConversationsSettings,
  ) {}

  async execute(command: PostReplyCommand): Promise<ConversationMessageDto> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    await command.idempotency.claimKey();
    refuseLongContent(command.content, this.settings);
    return this.messages.transaction(async (runner) => {
      const view = refuseUnseen(command.principal, await this.sessions.lockedView(runner, scope, command.sessionID));
      if (view.session.sessionState === 'closed') throw new AppException('SessionClosed');
      const stored = await this.messages.insertOutbound(runner, scope, {
        sessionID: view.session.sessionID,
        inboxID: view.session.inboxID,
        content: command.content,
        operatorID: command.principal.operatorID,
      });
      const after = (await this.sessions.view(scope, view.session.sessionID, runner))!;
      await this.events.session(runner, scope, 'message.created', after, { message: stored.message });
      return stored.message;
    });
  }
}
