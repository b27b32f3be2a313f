import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import type { DeletePluginConnectionReply } from '@platform/contracts';
import { PluginConnectionsClient } from './plugin-connections.client';

export interface DeletePluginConnectionCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  /** Canonical (lower-cased by the request rule, IsCanonicalUuid). */
  pluginConnectionID: string;
}

/**
 * Operation 1, for the tenant's owners only (403 1004; an unknown tenant is
 * 404 1062). core-tenants removes the connection (its VM, token and
 * subscription item) when asked over the transport; its catalog errors come
 * back as they are (a VM provider failure is 502 5002, a missing answer 504 5904).
 */
@Injectable()
export class DeletePluginConnectionUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly pluginConnections: PluginConnectionsClient,
  ) {}

  async execute(command: DeletePluginConnectionCommand): Promise<DeletePluginConnectionReply> {
    const scope = await this.access.require(command.principal, command.tenantID, { ownerOnly: true, tenantNotFoundIs404: true });
    return this.pluginConnections.delete({ tenantID: scope.tenantID, pluginConnectionID: command.pluginConnectionID });
  }
}
