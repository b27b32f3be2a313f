import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { rows, sql } from '@platform/database';
import { DataSource } from 'typeorm';
import { InstalledTraceProvider } from './trace-provider/trace.provider';

const SESSION_EXISTS = sql<{ '?column?': number }, [sessionID: string, tenantID: string]>('SELECT 1 FROM sessions WHERE id = $1 AND tenant_id = $2');

const PROVIDERS = sql<{ id: string; urn: string; name: string; icon_url: string | null; trace_endpoint_url: string }, [tenantID: string]>(
  `SELECT p.id, p.urn, p.name, p.icon_url, p.trace_endpoint_url
         FROM plugin_connections c
         JOIN plugins p ON p.id = c.plugin_id
        WHERE c.tenant_id = $1 AND c.status = 'live' AND p.trace_endpoint_url IS NOT NULL
        ORDER BY p.urn`,
);

const SESSION_MESSAGES_AMONG = sql<{ id: string }, [tenantID: string, sessionID: string, messageIDs: string[]]>(
  `SELECT id FROM messages
        WHERE id = ANY ($3::uuid[]) AND session_id = $2 AND tenant_id = $1
        ORDER BY created_at, id`,
);

@Injectable()
export class ProcessingTracesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Whether the session exists on the tenant (primary key, then its tenant). */
  async sessionExists(scope: TenantScope, sessionID: string): Promise<boolean> {
    const found = await rows(this.dataSource, SESSION_EXISTS, [sessionID, scope.tenantID]);
    return found.length > 0;
  }

  /**
   * The tenant's trace providers: plugins with a trace endpoint and a live
   * connection on the tenant (plugin_connections_live_tenant_plugin_key),
   * ordered by URN, the `source` of their traces.
   */
  async providersOf(scope: TenantScope): Promise<InstalledTraceProvider[]> {
    const found = await rows(this.dataSource, PROVIDERS, [scope.tenantID]);
    return found.map((row) => ({ pluginID: row.id, urn: row.urn, name: row.name, iconUrl: row.icon_url, endpointUrl: row.trace_endpoint_url }));
  }

  /**
   * Which of these message ids are messages of the session, oldest first
   * (created_at, then id): providers may only speak of the session's own messages.
   */
  async sessionMessagesAmong(scope: TenantScope, sessionID: string, messageIDs: string[]): Promise<string[]> {
    if (messageIDs.length === 0) return [];
    const found = await rows(this.dataSource, SESSION_MESSAGES_AMONG, [scope.tenantID, sessionID, messageIDs]);
    return found.map((row) => row.id);
  }
}
