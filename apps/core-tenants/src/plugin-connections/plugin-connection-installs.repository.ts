import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import type { PluginConnectionKind } from '@platform/database';
import { firstRow, run, sql, SqlRunner, TransactionalRepository } from '@platform/database';
import { violatedUniqueConstraint } from '@platform/errors';

/** What installing a plugin on a tenant needs to know of both. */
export interface InstallTarget {
  /** The plugin's name, as events about its connections tell it. */
  pluginName: string;
  kind: PluginConnectionKind;
  /** The plugin's billing price (paid plugins). */
  price: string | null;
  /** The plugin's VM image (hosted plugins). */
  image: string | null;
  /** The tenant's billing subscription, if it has one. */
  subscription: string | null;
  /** Whether the plugin has a live connection on the tenant already. */
  installed: boolean;
}

export interface NewPluginConnection {
  pluginConnectionID: string;
  pluginID: string;
  kind: PluginConnectionKind;
  tokenHash: string;
  subscriptionItemID: string | null;
  vmID: string | null;
}

const INSTALL_TARGET = sql<InstallTarget, [pluginID: string, tenantID: string]>(
  `SELECT p.name AS "pluginName", p.connection_kind AS kind, p.billing_price_id AS price, p.vm_image AS image,
              t.billing_subscription_id AS subscription,
              EXISTS (SELECT 1 FROM plugin_connections c
                       WHERE c.tenant_id = t.id AND c.plugin_id = p.id AND c.status = 'live') AS installed
         FROM plugins p, tenants t
        WHERE p.id = $1 AND t.id = $2`,
);

const INSERT_CONNECTION = sql<
  never,
  [
    pluginConnectionID: string,
    tenantID: string,
    pluginID: string,
    kind: PluginConnectionKind,
    tokenHash: string,
    subscriptionItemID: string | null,
    vmID: string | null,
  ]
>(
  `INSERT INTO plugin_connections (id, tenant_id, plugin_id, kind, token_hash, subscription_item_id, vm_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
);

/** The installation of plugin connections. */
@Injectable()
export class PluginConnectionInstallsRepository extends TransactionalRepository {
  /** The plugin and the tenant, in one read; undefined if the plugin does not exist. */
  async findTarget(scope: TenantScope, pluginID: string): Promise<InstallTarget | undefined> {
    return firstRow(this.dataSource, INSTALL_TARGET, [pluginID, scope.tenantID]);
  }

  /**
   * Writes a live connection. 'already-installed' when the plugin has a live
   * connection on the tenant by now: two installs raced, and the unique index
   * on live (tenant, plugin) let one through.
   */
  async insert(scope: TenantScope, connection: NewPluginConnection, runner: SqlRunner = this.dataSource): Promise<'inserted' | 'already-installed'> {
    try {
      await run(runner, INSERT_CONNECTION, [
        connection.pluginConnectionID,
        scope.tenantID,
        connection.pluginID,
        connection.kind,
        connection.tokenHash,
        connection.subscriptionItemID,
        connection.vmID,
      ]);
      return 'inserted';
    } catch (error) {
      if (violatedUniqueConstraint(error) === 'plugin_connections_live_tenant_plugin_key') return 'already-installed';
      throw error;
    }
  }
}
