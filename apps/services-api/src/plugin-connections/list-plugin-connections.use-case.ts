import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, PluginConnectionPrincipal, TenantAccessService } from '@platform/auth';
import { KeysetCursors, KeysetList } from '@platform/http-common';
import { ExactTimeAndID, formatExactTimeAndID, parseExactTimeAndID } from '../exact-time-position';
import type { PluginConnectionsResponse } from './plugin-connection-list.dto';
import { PluginConnectionReadsRepository } from './plugin-connection-reads.repository';

/** A position in a tenant's plugin connections, oldest first: the last one's exact install time and id. */
export const CONNECTION_PAGES: KeysetList<ExactTimeAndID> = { name: 'plugin-connections', format: formatExactTimeAndID, parse: parseExactTimeAndID };

export interface ListPluginConnectionsCommand {
  principal: OperatorPrincipal | PluginConnectionPrincipal;
  tenantID: string;
  limit: number;
  /** The previous page's `meta.nextCursor`; one this API did not make is 400 1002, before any access check. */
  cursor?: string;
}

/**
 * The tenant's live plugin connections, oldest first, by keyset, each with
 * its plugin and inboxes: every one for the tenant's operators, itself only
 * for a plugin connection.
 */
@Injectable()
export class ListPluginConnectionsUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly connections: PluginConnectionReadsRepository,
    private readonly cursors: KeysetCursors,
  ) {}

  async execute(command: ListPluginConnectionsCommand): Promise<PluginConnectionsResponse> {
    const after = command.cursor === undefined ? undefined : this.cursors.read(CONNECTION_PAGES, command.cursor);
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    const only = command.principal.kind === 'pluginConnection' ? command.principal.pluginConnectionID : null;
    const found = await this.connections.page(scope, only, after, command.limit + 1);
    const page = found.slice(0, command.limit);
    const nextCursor = found.length > command.limit ? this.cursors.issue(CONNECTION_PAGES, page[page.length - 1].position) : null;
    return { data: page.map((listed) => listed.connection), meta: { limit: command.limit, nextCursor } };
  }
}
