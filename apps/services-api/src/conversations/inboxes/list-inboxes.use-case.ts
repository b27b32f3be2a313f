import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, PluginConnectionPrincipal, TenantAccessService } from '@platform/auth';
import { listMeta, PageRequest, pageOffsetOf } from '@platform/http-common';
import type { InboxListResponse } from './inbox.dto';
import { inboxDtoOf } from './inbox-view';
import { InboxesRepository } from './inboxes.repository';

export interface ListInboxesCommand {
  principal: OperatorPrincipal | PluginConnectionPrincipal;
  tenantID: string;
  page: PageRequest;
}

/**
 * The inboxes a caller may use: every live inbox of the tenant for its
 * operators, its own for a plugin connection. Oldest first.
 */
@Injectable()
export class ListInboxesUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly inboxes: InboxesRepository,
  ) {}

  async execute(command: ListInboxesCommand): Promise<InboxListResponse> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    const connection = command.principal.kind === 'pluginConnection' ? command.principal.pluginConnectionID : null;
    const offset = pageOffsetOf(command.page) ?? Number.MAX_SAFE_INTEGER;
    const { totalCount, data } = await this.inboxes.page(scope, connection, { offset, limit: command.page.perPage });
    return { data: data.map(inboxDtoOf), meta: listMeta(command.page, totalCount, data.length) };
  }
}
