import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { rows, sql } from '@platform/database';
import { DataSource } from 'typeorm';

/** A plugin that can be sent trace-provider credentials. */
export interface TraceProvider {
  id: string;
  urn: string;
}

const OPERATOR_EXISTS = sql<object, [operatorID: string]>('SELECT 1 FROM operators WHERE id = $1');

const LIVE_TRACE_PROVIDERS = sql<TraceProvider, [tenantID: string, pluginIDs: string[]]>(
  `SELECT p.id, p.urn
         FROM plugin_connections c
         JOIN plugins p ON p.id = c.plugin_id
        WHERE c.tenant_id = $1 AND c.status = 'live' AND c.plugin_id = ANY ($2::uuid[]) AND p.trace_endpoint_url IS NOT NULL`,
);

/** What the token issuers read of whom a token is for. */
@Injectable()
export class TokenSubjectsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async operatorExists(operatorID: string): Promise<boolean> {
    return (await rows(this.dataSource, OPERATOR_EXISTS, [operatorID])).length > 0;
  }

  /** Those of the plugins that have a trace endpoint and a live connection on the tenant. */
  async liveTraceProviders(scope: TenantScope, pluginIDs: string[]): Promise<TraceProvider[]> {
    return rows(this.dataSource, LIVE_TRACE_PROVIDERS, [scope.tenantID, pluginIDs]);
  }
}
