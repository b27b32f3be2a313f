import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { rows, sql } from '@platform/database';
import { DataSource } from 'typeorm';
import { ExactTimeAndID, exactTimeSql } from '../exact-time-position';
import { MAX_INBOXES_PER_CONNECTION, PluginConnectionDto } from './plugin-connection-list.dto';

interface ConnectionRow {
  id: string;
  kind: string;
  created_at: Date;
  created_exact: string;
  plugin_id: string;
  plugin_name: string;
  plugin_urn: string;
  plugin_icon_url: string | null;
  inboxes: { inboxID: string; name: string; channel: string }[];
  inbox_count: string;
}

/**
 * A page of the tenant's live plugin connections, oldest first, after a
 * keyset position (exclusive), each with its plugin and live inboxes. A read
 * of core-tenants' `plugin_connections` and `plugins` (a read path listed in
 * docs/data-access.md#table-ownership). A tenant holds one live connection
 * per plugin, so the page's sort is over that few. `$5` null lists every
 * connection, else only that one (a plugin connection sees itself).
 */
const PAGE = sql<ConnectionRow, [tenantID: string, afterAt: string | null, afterID: string | null, limit: number, pluginConnectionID: string | null]>(
  `WITH page AS (
     SELECT c.id, c.kind, c.created_at, c.plugin_id FROM plugin_connections c
      WHERE c.tenant_id = $1 AND c.status = 'live'
        AND ($5::uuid IS NULL OR c.id = $5::uuid)
        AND ($2::timestamptz IS NULL OR (c.created_at, c.id) > ($2::timestamptz, $3::uuid))
      ORDER BY c.created_at, c.id
      LIMIT $4
   )
   SELECT page.id, page.kind, page.created_at, ${exactTimeSql('page.created_at')} AS created_exact,
          p.id AS plugin_id, p.name AS plugin_name, p.urn AS plugin_urn, p.icon_url AS plugin_icon_url,
          coalesce((SELECT json_agg(json_build_object('inboxID', i.id, 'name', i.name, 'channel', i.channel) ORDER BY i.created_at, i.id)
                      FROM (SELECT id, name, channel, created_at FROM inboxes
                             WHERE tenant_id = $1 AND plugin_connection_id = page.id AND removed_at IS NULL
                             ORDER BY created_at, id LIMIT ${MAX_INBOXES_PER_CONNECTION}) i), '[]') AS inboxes,
          (SELECT count(*) FROM inboxes WHERE tenant_id = $1 AND plugin_connection_id = page.id AND removed_at IS NULL) AS inbox_count
     FROM page
     JOIN plugins p ON p.id = page.plugin_id
    ORDER BY page.created_at, page.id`,
);

/** A connection and its place in the list. */
export interface ListedConnection {
  connection: PluginConnectionDto;
  position: ExactTimeAndID;
}

/** The tenant's plugin connections as the API lists them, with their plugins and inboxes. */
@Injectable()
export class PluginConnectionReadsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async page(scope: TenantScope, only: string | null, after: ExactTimeAndID | undefined, limit: number): Promise<ListedConnection[]> {
    const found = await rows(this.dataSource, PAGE, [scope.tenantID, after?.at ?? null, after?.id ?? null, limit, only]);
    return found.map((row) => ({
      connection: {
        pluginConnectionID: row.id,
        kind: row.kind,
        createdAt: row.created_at.toISOString(),
        plugin: { pluginID: row.plugin_id, name: row.plugin_name, urn: row.plugin_urn, iconUrl: row.plugin_icon_url },
        inboxes: row.inboxes,
        inboxCount: Number(row.inbox_count),
      },
      position: { at: row.created_exact, id: row.id },
    }));
  }
}
