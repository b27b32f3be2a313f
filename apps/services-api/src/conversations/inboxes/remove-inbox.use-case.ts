import { Injectable } from '@nestjs/common';
import { AuditTrail } from '@platform/audit';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { AppException } from '@platform/errors';
import { INBOX_OWNERS_ONLY } from './inbox-view';
import { InboxesRepository } from './inboxes.repository';

export interface RemoveInboxCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  inboxID: string;
}

/**
 * An owner removes an inbox: refused (409 1941) while it has an open
 * session, so no conversation is cut off; its closed sessions keep naming
 * it. Under the inbox's row lock, which an inbound post's share lock and a
 * new session's foreign key check both wait for, so no session opens on it
 * between the check and the removal.
 */
@Injectable()
export class RemoveInboxUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly inboxes: InboxesRepository,
    private readonly audit: AuditTrail,
  ) {}

  async execute(command: RemoveInboxCommand): Promise<void> {
    const scope = await this.access.require(command.principal, command.tenantID, INBOX_OWNERS_ONLY);
    await this.inboxes.transaction(async (runner) => {
      const inbox = await this.inboxes.lockLive(runner, scope, command.inboxID);
      if (!inbox) throw new AppException('InboxNotFound');
      if (await this.inboxes.hasOpenSessions(runner, scope, inbox.inboxID)) throw new AppException('InboxHasOpenSessions');
      await this.inboxes.remove(runner, scope, inbox.inboxID);
      await this.audit.record(runner, scope, { action: 'inbox.removed', targetID: inbox.inboxID });
    });
  }
}
