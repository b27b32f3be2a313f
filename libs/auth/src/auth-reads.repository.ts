import { Injectable } from '@nestjs/common';
import { firstRow, sql } from '@platform/database';
import { DataSource } from 'typeorm';

/**
 * The one read-only path by which every app reads core-tenants' tables to
 * authenticate a caller and check its access (docs/data-access.md#table-ownership).
 * Nothing here writes; core-tenants alone writes these tables.
 */

const OPERATOR_STANDING = sql<{ tenant: string | null; role: 'owner' | 'member' | null }, [tenantID: string, operatorID: string]>(
  `SELECT t.id AS tenant, m.role
     FROM (SELECT $1::uuid AS id) wanted
     LEFT JOIN tenants t ON t.id = wanted.id
     LEFT JOIN memberships m ON m.tenant_id = t.id AND m.operator_id = $2`,
);

const PLUGIN_STANDING = sql<{ tenant: string | null; installed: boolean }, [tenantID: string, pluginID: string]>(
  `SELECT t.id AS tenant,
          EXISTS (SELECT 1 FROM plugin_connections c
                   WHERE c.tenant_id = t.id AND c.plugin_id = $2 AND c.status = 'live') AS installed
     FROM (SELECT $1::uuid AS id) wanted
     LEFT JOIN tenants t ON t.id = wanted.id`,
);

const TENANT_EXISTS = sql<{ exists: boolean }, [tenantID: string]>('SELECT EXISTS (SELECT 1 FROM tenants WHERE id = $1) AS exists');

const PLUGIN_SECRET = sql<{ token_hash: string }, [pluginID: string]>('SELECT token_hash FROM plugins WHERE id = $1');

const LIVE_CONNECTION_SECRET = sql<{ token_hash: string; tenant_id: string; plugin_id: string }, [pluginConnectionID: string]>(
  `SELECT token_hash, tenant_id, plugin_id FROM plugin_connections WHERE id = $1 AND status = 'live'`,
);

/** A tenant as an access check sees it: missing, or the principal's standing there. */
export type TenantLookup<Standing> = { tenantExists: false } | { tenantExists: true; standing: Standing };

@Injectable()
export class AuthReadsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** One statement: whether the tenant exists and the operator's role in it (null when not a member). */
  async operatorStanding(tenantID: string, operatorID: string): Promise<TenantLookup<'owner' | 'member' | null>> {
    const row = await firstRow(this.dataSource, OPERATOR_STANDING, [tenantID, operatorID]);
    return row?.tenant ? { tenantExists: true, standing: row.role } : { tenantExists: false };
  }

  /** One statement: whether the tenant exists and the plugin has a live connection there. */
  async pluginStanding(tenantID: string, pluginID: string): Promise<TenantLookup<boolean>> {
    const row = await firstRow(this.dataSource, PLUGIN_STANDING, [tenantID, pluginID]);
    return row?.tenant ? { tenantExists: true, standing: row.installed } : { tenantExists: false };
  }

  async tenantExists(tenantID: string): Promise<boolean> {
    return (await firstRow(this.dataSource, TENANT_EXISTS, [tenantID]))?.exists ?? false;
  }

  async pluginTokenHash(pluginID: string): Promise<string | undefined> {
    return (await firstRow(this.dataSource, PLUGIN_SECRET, [pluginID]))?.token_hash;
  }

  async liveConnectionSecret(pluginConnectionID: string): Promise<{ tokenHash: string; tenantID: string; pluginID: string } | undefined> {
    const row = await firstRow(this.dataSource, LIVE_CONNECTION_SECRET, [pluginConnectionID]);
    return row && { tokenHash: row.token_hash, tenantID: row.tenant_id, pluginID: row.plugin_id };
  }
}
