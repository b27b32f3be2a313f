import { Injectable } from '@nestjs/common';
import { TenantAccessService } from '@platform/auth';
import { KeysetCursors } from '@platform/http-common';
import { refuseUnseen, type ConversationPrincipal } from '../sessions/session-access';
import { SessionsRepository } from '../sessions/sessions.repository';
import type { SessionMessagesResponse } from './message.dto';
import { MESSAGE_PAGES } from './message-cursor';
import { MessagesRepository } from './messages.repository';

export interface ListSessionMessagesCommand {
  principal: ConversationPrincipal;
  tenantID: string;
  sessionID: string;
  limit: number;
  /** The previous page's `meta.nextCursor`; one this API did not make is 400 1002, before any access check. */
  cursor?: string;
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
    private readonly cursors: KeysetCursors,
  ) {}

  async execute(command: ListSessionMessagesCommand): Promise<SessionMessagesResponse> {
    const before = command.cursor === undefined ? undefined : this.cursors.read(MESSAGE_PAGES, command.cursor);
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    const view = refuseUnseen(command.principal, await this.sessions.view(scope, command.sessionID));
    const found = await this.messages.page(scope, view.session.sessionID, before, command.limit + 1);
    const page = found.slice(0, command.limit);
    const nextCursor = found.length > command.limit ? this.cursors.issue(MESSAGE_PAGES, page[page.length - 1].position) : null;
    return { data: page.map((stored) => stored.message), meta: { limit: command.limit, nextCursor } };
  }
}
