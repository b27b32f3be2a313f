import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { generateSecretToken, hashSecretToken } from '@platform/auth';
import { InstallPluginConnectionPayload, InstallPluginConnectionReply } from '@platform/contracts';
import type { PluginConnectionKind } from '@platform/database';
import { AppException, violatedUniqueConstraint } from '@platform/errors';
import { DataSource } from 'typeorm';
import { BillingProvider } from './billing/billing.provider';
import { VmProvider } from './vms/vm.provider';

interface PluginRow {
  kind: PluginConnectionKind;
  price: string | null;
  image: string | null;
  subscription: string | null;
  installed: boolean;
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
    private readonly dataSource: DataSource,
    private readonly billing: BillingProvider,
    private readonly vms: VmProvider,
  ) {}

  async execute(payload: InstallPluginConnectionPayload): Promise<InstallPluginConnectionReply> {
    const plugin = await this.findPlugin(payload);
    if (plugin.installed) throw new AppException('PluginAlreadyInstalled');

    const pluginConnectionID = randomUUID();
    const token = generateSecretToken();
    const resources = await this.provision(plugin, payload, pluginConnectionID);
    try {
      await this.dataSource.query(
        `INSERT INTO plugin_connections (id, tenant_id, plugin_id, kind, token_hash, subscription_item_id, vm_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [pluginConnectionID, payload.tenantID, payload.pluginID, plugin.kind, hashSecretToken(token), resources.subscriptionItemId, resources.vmId],
      );
    } catch (error) {
      await this.release(resources);
      // Two installs raced: the unique index on live (tenant, plugin) let one through.
      if (violatedUniqueConstraint(error) === 'plugin_connections_live_tenant_plugin_key') throw new AppException('PluginAlreadyInstalled');
      throw error;
    }
    return { pluginConnectionID, pluginConnectionToken: token, pluginID: payload.pluginID, kind: plugin.kind };
  }

  private async findPlugin(payload: InstallPluginConnectionPayload): Promise<PluginRow> {
    const rows: PluginRow[] = await this.dataSource.query(
      `SELECT p.connection_kind AS kind, p.billing_price_id AS price, p.vm_image AS image,
              t.billing_subscription_id AS subscription,
              EXISTS (SELECT 1 FROM plugin_connections c
                       WHERE c.tenant_id = t.id AND c.plugin_id = p.id AND c.status = 'live') AS installed
         FROM plugins p, tenants t
        WHERE p.id = $1 AND t.id = $2`,
      [payload.pluginID, payload.tenantID],
    );
    if (rows.length === 0) {
      throw AppException.validation([{ field: 'pluginID', received: payload.pluginID, allowed: 'the id of an existing plugin' }]);
    }
    return rows[0];
  }

  private async provision(plugin: PluginRow, payload: InstallPluginConnectionPayload, pluginConnectionID: string): Promise<ProvisionedResources> {
    if (plugin.kind === 'paid') {
      if (!plugin.subscription) throw new AppException('TenantBillingNotConfigured');
      if (!plugin.price) throw new Error(`paid plugin ${payload.pluginID} has no billing price`);
      const subscriptionItemId = await this.billing
        .createSubscriptionItem({ subscriptionId: plugin.subscription, priceId: plugin.price, idempotencyKey: `install-${pluginConnectionID}` })
        .catch((error: unknown) => {
          throw new AppException('BadGateway', { cause: error });
        });
      return { subscriptionItemId, vmId: null };
    }
    if (plugin.kind === 'hosted') {
      const vmId = await this.vms
        .createVm({ image: plugin.image ?? 'default', tenantID: payload.tenantID, pluginConnectionID })
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
