import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AuditTrail } from '@platform/audit';
import { CredentialStore, generateSecretToken, hashSecretToken } from '@platform/auth';
import type { TenantScope } from '@platform/auth';
import type { InstallPluginConnectionReply } from '@platform/contracts';
import { AppException } from '@platform/errors';
import { BillingProvider } from './billing/billing.provider';
import { InstallTarget, PluginConnectionInstallsRepository } from './plugin-connection-installs.repository';
import { VmProvider } from './vms/vm.provider';

export interface InstallPluginConnectionCommand {
  /** The tenant services-api checked the owner's access to. */
  scope: TenantScope;
  pluginID: string;
}

/** Provider resources made for a connection before its row exists. */
interface ProvisionedResources {
  subscriptionItemId: string | null;
  vmId: string | null;
}

/**
 * Installs a plugin on a tenant: makes what the plugin's kind needs at the
 * providers first (a subscription item for `paid`, a VM for `hosted`), then
 * writes the connection. A failure at a provider writes nothing; a failure
 * after it undoes the provider side, so no half-made connection remains.
 */
@Injectable()
export class InstallPluginConnectionUseCase {
  private readonly logger = new Logger(InstallPluginConnectionUseCase.name);

  constructor(
    private readonly installs: PluginConnectionInstallsRepository,
    private readonly billing: BillingProvider,
    private readonly vms: VmProvider,
    private readonly audit: AuditTrail,
    private readonly credentials: CredentialStore,
  ) {}

  async execute(command: InstallPluginConnectionCommand): Promise<InstallPluginConnectionReply> {
    const { scope, pluginID } = command;
    const plugin = await this.installs.findTarget(scope, pluginID);
    if (!plugin) throw AppException.validation([{ field: 'pluginID', received: pluginID, allowed: 'the id of an existing plugin' }]);
    if (plugin.installed) throw new AppException('PluginAlreadyInstalled');

    const pluginConnectionID = randomUUID();
    const token = generateSecretToken();
    const resources = await this.provision(plugin, command, pluginConnectionID);
    let outcome: 'inserted' | 'already-installed';
    try {
      // The row and its audit record commit together (a lost unique race rolls both back).
      outcome = await this.installs.transaction(async (runner) => {
        const inserted = await this.installs.insert(
          scope,
          {
            pluginConnectionID,
            pluginID,
            kind: plugin.kind,
            tokenHash: hashSecretToken(token),
            subscriptionItemId: resources.subscriptionItemId,
            vmId: resources.vmId,
          },
          runner,
        );
        if (inserted === 'inserted') {
          await this.audit.record(runner, scope, {
            action: 'pluginConnection.installed',
            targetID: pluginConnectionID,
            summary: { pluginID, kind: plugin.kind, billing: resources.subscriptionItemId ? 'subscribed' : 'none', vm: resources.vmId ? 'created' : 'none' },
          });
        }
        return inserted;
      });
    } catch (error) {
      await this.release(resources);
      throw error;
    }
    if (outcome === 'already-installed') {
      await this.release(resources);
      throw new AppException('PluginAlreadyInstalled');
    }
    await this.credentials.forgetUnknownConnection(pluginConnectionID);
    return { pluginConnectionID, pluginConnectionToken: token, pluginID, kind: plugin.kind };
  }

  private async provision(plugin: InstallTarget, command: InstallPluginConnectionCommand, pluginConnectionID: string): Promise<ProvisionedResources> {
    if (plugin.kind === 'paid') {
      if (!plugin.subscription) throw new AppException('TenantBillingNotConfigured');
      if (!plugin.price) throw new Error(`paid plugin ${command.pluginID} has no billing price`);
      const subscriptionItemId = await this.billing
        .createSubscriptionItem({ subscriptionId: plugin.subscription, priceId: plugin.price, idempotencyKey: `install-${pluginConnectionID}` })
        .catch((error: unknown) => {
          throw new AppException('BadGateway', { cause: error });
        });
      return { subscriptionItemId, vmId: null };
    }
    if (plugin.kind === 'hosted') {
      const vmId = await this.vms
        .createVm({ image: plugin.image ?? 'default', tenantID: command.scope.tenantID, pluginConnectionID })
        .catch((error: unknown) => {
          throw new AppException('BadGateway', { cause: error });
        });
      return { subscriptionItemId: null, vmId };
    }
    return { subscriptionItemId: null, vmId: null };
  }

  /** Best effort: what cannot be undone now is logged for an operator to clean up. */
  private async release(resources: ProvisionedResources): Promise<void> {
    try {
      if (resources.subscriptionItemId) await this.billing.cancelSubscriptionItem(resources.subscriptionItemId);
      if (resources.vmId) await this.vms.deleteVm(resources.vmId);
    } catch (error) {
      this.logger.error({ err: error, resources }, 'could not undo provider resources of a failed install');
    }
  }
}
