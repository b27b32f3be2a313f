import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { actorOf, OperatorPrincipal, TenantAccessService } from '@platform/auth';
import type { InstallPluginConnectionReply } from '@platform/contracts';
import type { IdempotencyKeyClaim } from '@platform/idempotency';
import { PluginConnectionsClient } from './plugin-connections.client';

export interface InstallPluginConnectionCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  /** Canonical (lower-cased by the request rule, IsCanonicalUuid). */
  pluginID: string;
  /** The request's `Idempotency-Key`, if it carried one. */
  idempotencyKey?: string;
  /** Claimed right after the access check (docs/idempotency.md, check order). */
  idempotency: IdempotencyKeyClaim;
}

/**
 * Installs a plugin on the tenant, for its owners only (403 1004; an unknown
 * tenant is 404 1062). core-tenants owns the connections and the billing and
 * VM providers: it is asked over the transport, and its catalog errors (a
 * provider failure is 502 5002) come back as they are.
 */
@Injectable()
export class InstallPluginConnectionUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly pluginConnections: PluginConnectionsClient,
  ) {}

  async execute(command: InstallPluginConnectionCommand): Promise<InstallPluginConnectionReply> {
    const scope = await this.access.require(command.principal, command.tenantID, { ownerOnly: true, tenantNotFoundIs404: true });
    await command.idempotency.claimKey();
    const requestKey = command.idempotencyKey === undefined ? undefined : scopedRequestKey(actorOf(command.principal), command.idempotencyKey);
    return this.pluginConnections.install({ tenantID: scope.tenantID, pluginID: command.pluginID, requestKey });
  }
}

/**
 * The client's key as core-tenants sees it: bound to the operator who sent it
 * (two operators' equal keys are different installs) and never the key itself.
 */
export function scopedRequestKey(actor: string, idempotencyKey: string): string {
  return createHash('sha256').update(`${actor}\n${idempotencyKey}`).digest('hex');
}
