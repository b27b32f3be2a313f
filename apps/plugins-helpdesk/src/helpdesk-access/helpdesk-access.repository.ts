import { Injectable } from '@nestjs/common';
import { firstRow, sql } from '@platform/database';
import { DataSource } from 'typeorm';

/** Whether the tenant exists and has a live connection of the helpdesk plugin. */
export interface TenantHelpdeskState {
  exists: boolean;
  connected: boolean;
}

/** `$1` the tenant, `$2` the helpdesk plugin (null while no plugin has its URN). */
const TENANT_HELPDESK_STATE = sql<TenantHelpdeskState, [tenantID: string, pluginID: string | null]>(
  `SELECT EXISTS (SELECT 1 FROM tenants WHERE id = $1) AS exists,
              EXISTS (SELECT 1 FROM plugin_connections
                       WHERE tenant_id = $1 AND plugin_id = $2 AND status = 'live') AS connected`,
);

const PLUGIN_BY_URN = sql<{ id: string }, [urn: string]>('SELECT id FROM plugins WHERE urn = $1');

/**
 * What the helpdesk access rule reads: the helpdesk plugin's id, and a
 * tenant's helpdesk state. Read before access is granted, as part of the check, so
 * these take a bare tenant id.
 */
@Injectable()
export class HelpdeskAccessRepository {
  constructor(private readonly dataSource: DataSource) {}

  async pluginIDByUrn(urn: string): Promise<string | undefined> {
    return (await firstRow(this.dataSource, PLUGIN_BY_URN, [urn]))?.id;
  }

  /** One indexed query, on every request: removing the helpdesk connection is felt at once, on every replica. */
  async tenantHelpdeskState(tenantID: string, pluginID: string | undefined): Promise<TenantHelpdeskState> {
    const found = await firstRow(this.dataSource, TENANT_HELPDESK_STATE, [tenantID, pluginID ?? null]);
    return { exists: found?.exists ?? false, connected: found?.connected ?? false };
  }
}
