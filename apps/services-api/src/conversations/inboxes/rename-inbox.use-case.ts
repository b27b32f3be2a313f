import { Injectable } from '@nestjs/common';
import { AuditTrail } from '@platform/audit';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { AppException } from '@platform/errors';
import type { InboxDto } from './inbox.dto';
import { inboxDtoOf, INBOX_OWNERS_ONLY } from './inbox-view';
import { InboxesRepository } from './inboxes.repository';

export interface RenameInboxCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  inboxID: string;
  name: string;
}

/** An owner renames a live inbox of the tenant (else 404 1940). */
@Injectable()
export class RenameInboxUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly inboxes: InboxesRepository,
    private readonly audit: AuditTrail,
  ) {}

  async execute(command: RenameInboxCommand): Promise<InboxDto> {
    const scope = await this.access.require(command.principal, command.tenantID, INBOX_OWNERS_ONLY);
    const renamed = await this.inboxes.transaction(async (runner) => {
      const inbox = await this.inboxes.rename(runner, scope, command.inboxID, command.name);
      if (inbox) await this.audit.record(runner, scope, { action: 'inbox.renamed', targetID: inbox.inboxID, summary: { name: inbox.name } });
      return inbox;
    });
    if (!renamed) throw new AppException('InboxNotFound');
    return inboxDtoOf(renamed);
  }
}
