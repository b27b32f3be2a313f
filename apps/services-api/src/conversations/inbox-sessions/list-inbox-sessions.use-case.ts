import { Injectable } from '@nestjs/common';
import { TenantAccessService } from '@platform/auth';
import { AppException, renderReceived } from '@platform/errors';
import { canonicalUuid, KeysetCursors } from '@platform/http-common';
import { sessionVisibilityOf } from '../sessions/session-visibility';
import { refuseUnreadable } from '../inboxes/inbox-view';
import { InboxesRepository } from '../inboxes/inboxes.repository';
import type { ConversationPrincipal } from '../sessions/session-access';
import { INBOX_SESSION_PAGES } from './inbox-session-cursor';
import type { AssigneeFilter, QueueState } from './inbox-session-filters';
import type { InboxSessionsResponse } from './inbox-sessions.dto';
import { InboxSessionsRepository, QueueVisibility } from './inbox-sessions.repository';

export interface ListInboxSessionsCommand {
  principal: ConversationPrincipal;
  tenantID: string;
  inboxID: string;
  /** Validated by the query's rules (IsOneOf). */
  state?: QueueState;
  /** `mine`, `unassigned`, `someone` or an operator's id (validated by the query's rules). */
  assignee?: string;
  limit: number;
  /** The previous page's `meta.nextCursor`; one this API did not make is 400 1002, before any access check. */
  cursor?: string;
}

/** The assignee filter of a query value; `mine` for a plugin connection, which is no operator, is 400 1002. */
function assigneeFilterOf(principal: ConversationPrincipal, assignee: string | undefined): AssigneeFilter | undefined {
  switch (assignee) {
    case undefined:
      return undefined;
    case 'unassigned':
    case 'someone':
      return { kind: assignee };
    case 'mine':
      if (principal.kind !== 'operator') {
        throw AppException.validation([{ field: 'assignee', received: renderReceived(assignee), allowed: "unassigned, someone, or an operator's id (uuid): a plugin connection has no sessions of its own" }]);
      }
      return { kind: 'operator', operatorID: principal.operatorID };
    default:
      return { kind: 'operator', operatorID: canonicalUuid(assignee) };
  }
}

/**
 * An inbox's sessions, most recently active first, by keyset
 * (docs/conversations.md#reading): the inbox as the caller may read it
 * (404 1940 otherwise), its sessions as the caller may see them (operation
 * 11's rule). One session more than the page is read to know whether another
 * page follows.
 */
@Injectable()
export class ListInboxSessionsUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly inboxes: InboxesRepository,
    private readonly sessions: InboxSessionsRepository,
    private readonly cursors: KeysetCursors,
  ) {}

  async execute(command: ListInboxSessionsCommand): Promise<InboxSessionsResponse> {
    const after = command.cursor === undefined ? undefined : this.cursors.read(INBOX_SESSION_PAGES, command.cursor);
    const assignee = assigneeFilterOf(command.principal, command.assignee);
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    const inbox = refuseUnreadable(command.principal, await this.inboxes.live(scope, command.inboxID));
    const visibility = sessionVisibilityOf(command.principal) as QueueVisibility;
    const found = await this.sessions.page(scope, inbox.inboxID, visibility, { state: command.state, assignee }, after, command.limit + 1);
    const page = found.slice(0, command.limit);
    const nextCursor = found.length > command.limit ? this.cursors.issue(INBOX_SESSION_PAGES, page[page.length - 1].position) : null;
    return { data: page.map((queued) => queued.session), meta: { limit: command.limit, nextCursor } };
  }
}
