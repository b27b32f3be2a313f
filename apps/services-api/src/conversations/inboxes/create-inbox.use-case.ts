import { Injectable } from '@nestjs/common';
import { AuditTrail } from '@platform/audit';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { AppException } from '@platform/errors';
import type { IdempotencyKeyClaim } from '@platform/idempotency';
import type { InboxDto } from './inbox.dto';
import { inboxDtoOf, INBOX_OWNERS_ONLY } from './inbox-view';
import { InboxesRepository } from './inboxes.repository';

export interface CreateInboxCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  name: string;
  channel: string;
  /** Canonical (the request rule). */
  pluginConnectionID: string;
  idempotency: IdempotencyKeyClaim;
}

/**
 * An owner creates an inbox on a live plugin connection of the tenant (else
 * 404 1054), with its audit record, in one transaction.
 */
@Injectable()
export class CreateInboxUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly inboxes: InboxesRepository,
    private readonly audit: AuditTrail,
  ) {}

  async execute(command: CreateInboxCommand): Promise<InboxDto> {
    const scope = await this.access.require(command.principal, command.tenantID, INBOX_OWNERS_ONLY);
    await command.idempotency.claimKey();
    const created = await this.inboxes.transaction(async (runner) => {
      if (!(await this.inboxes.hasLiveConnection(runner, scope, command.pluginConnectionID))) throw new AppException('PluginConnectionNotFound');
      const inbox = await this.inboxes.insert(runner, scope, { name: command.name, channel: command.channel, pluginConnectionID: command.pluginConnectionID });
      await this.audit.record(runner, scope, {
        action: 'inbox.created',
        targetID: inbox.inboxID,
        summary: { name: inbox.name, channel: inbox.channel, pluginConnectionID: command.pluginConnectionID },
      });
      return inbox;
    });
    return inboxDtoOf(created);
  }
}
