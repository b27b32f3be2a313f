import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, PluginConnectionPrincipal, TenantAccessService } from '@platform/auth';
import type { InboxDto } from './inbox.dto';
import { inboxDtoOf, refuseUnreadable } from './inbox-view';
import { InboxesRepository } from './inboxes.repository';

export interface GetInboxCommand {
  principal: OperatorPrincipal | PluginConnectionPrincipal;
  tenantID: string;
  inboxID: string;
}

/** One live inbox, as the list shows it: any of the tenant's for an operator, its own for a plugin connection (else 404 1940). */
@Injectable()
export class GetInboxUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly inboxes: InboxesRepository,
  ) {}

  async execute(command: GetInboxCommand): Promise<InboxDto> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    return inboxDtoOf(refuseUnreadable(command.principal, await this.inboxes.live(scope, command.inboxID)));
  }
}
