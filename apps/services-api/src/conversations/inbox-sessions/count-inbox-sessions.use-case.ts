import { Injectable } from '@nestjs/common';
import { TenantAccessService } from '@platform/auth';
import { sessionVisibilityOf } from '../sessions/session-visibility';
import { refuseUnreadable } from '../inboxes/inbox-view';
import { InboxesRepository } from '../inboxes/inboxes.repository';
import type { ConversationPrincipal } from '../sessions/session-access';
import type { InboxSessionCountsDto } from './inbox-sessions.dto';
import { InboxSessionsRepository, QueueVisibility } from './inbox-sessions.repository';

export interface CountInboxSessionsCommand {
  principal: ConversationPrincipal;
  tenantID: string;
  inboxID: string;
}

/**
 * The counts of an inbox's queue: its open sessions the caller may see
 * (operation 11's rule), exact, by state and assignee. Closed sessions are
 * not counted: they grow without bound, and an exact count of them would
 * cost the inbox's whole past on every call.
 */
@Injectable()
export class CountInboxSessionsUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly inboxes: InboxesRepository,
    private readonly sessions: InboxSessionsRepository,
  ) {}

  async execute(command: CountInboxSessionsCommand): Promise<InboxSessionCountsDto> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    const inbox = refuseUnreadable(command.principal, await this.inboxes.live(scope, command.inboxID));
    const counts = await this.sessions.counts(scope, inbox.inboxID, sessionVisibilityOf(command.principal) as QueueVisibility);
    return { queued: counts.queued, assigned: counts.assigned, open: counts.open, unassigned: counts.queued, mine: counts.mine };
  }
}
