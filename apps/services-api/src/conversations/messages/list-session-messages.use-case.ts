import { Injectable } from '@nestjs/common';
import { TenantAccessService } from '@platform/auth';
import { refuseUnseen, type ConversationPrincipal } from '../sessions/session-access';
import { SessionsRepository } from '../sessions/sessions.repository';
import type { SessionMessagesResponse } from './message.dto';
import { encodeMessageCursor, MessagePosition } from './message-cursor';
import { MessagesRepository } from './messages.repository';

export interface ListSessionMessagesCommand {
  principal: ConversationPrincipal;
  tenantID: string;
  sessionID: string;
  limit: number;
  /** Decoded from the request's cursor (validated there). */
  before?: MessagePosition;
}

/**
 * A page of a session's messages, newest first, by keyset
 * (docs/conversations.md#reading): one index walk from the cursor, whatever
 * the depth. One message more than the page is read to know whether another
 * page follows.
 */
@Injectable()
export class ListSessionMessagesUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly sessions: SessionsRepository,
    private readonly messages: MessagesRepository,
  ) {}

  async execute(command: ListSessionMessagesCommand): Promise<SessionMessagesResponse> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    const view = refuseUnseen(command.principal, await this.sessions.view(scope, command.sessionID));
    const found = await this.messages.page(scope, view.session.sessionID, command.before, command.limit + 1);
    const page = found.slice(0, command.limit);
    const nextCursor = found.length > command.limit ? encodeMessageCursor(page[page.length - 1].position) : null;
    return { data: page.map((stored) => stored.message), meta: { limit: command.limit, nextCursor } };
  }
}
