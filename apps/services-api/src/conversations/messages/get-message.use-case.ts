import { Injectable } from '@nestjs/common';
import { TenantAccessService } from '@platform/auth';
import type { ConversationMessageDto } from '@platform/conversations';
import { AppException } from '@platform/errors';
import { ConversationPrincipal, maySeeSession } from '../sessions/session-access';
import { SessionsRepository } from '../sessions/sessions.repository';
import { MessagesRepository } from './messages.repository';

export interface GetMessageCommand {
  principal: ConversationPrincipal;
  tenantID: string;
  messageID: string;
}

/**
 * One message, for whoever may see its session (operation 11's rule: an
 * operator who may see it, the plugin connection of its inbox). Any other
 * caller gets 404 1946, exactly as for a message the tenant does not have.
 */
@Injectable()
export class GetMessageUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly sessions: SessionsRepository,
    private readonly messages: MessagesRepository,
  ) {}

  async execute(command: GetMessageCommand): Promise<ConversationMessageDto> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    const found = await this.messages.byID(scope, command.messageID);
    const view = found && (await this.sessions.view(scope, found.message.sessionID));
    if (!found || !view || !maySeeSession(command.principal, view)) throw new AppException('MessageNotFound');
    return found.message;
  }
}
