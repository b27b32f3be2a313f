import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { CAMPAIGN_STATUSES, rows, sql } from '@platform/database';
import { DataSource } from 'typeorm';

export interface CampaignStats {
  byStatus: Record<string, number>;
  total: number;
}

const STATS = sql<{ status: string; count: string }, [tenantID: string, statuses: readonly string[]]>(
  `SELECT known.status, COALESCE(counted.count, 0) AS count
         FROM unnest($2::text[]) WITH ORDINALITY AS known (status, position)
         LEFT JOIN (SELECT status, count(*) AS count FROM campaigns WHERE tenant_id = $1 GROUP BY status) counted
           ON counted.status = known.status
        ORDER BY known.position`,
);

@Injectable()
export class CampaignsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Operation 6 in one query: every known status (zero where the tenant has
   * none), counted with one GROUP BY over the (tenant_id, status) index.
   */
  async stats(scope: TenantScope): Promise<CampaignStats> {
    const counted = await rows(this.dataSource, STATS, [scope.tenantID, CAMPAIGN_STATUSES]);
    const byStatus = Object.fromEntries(counted.map((row) => [row.status, Number(row.count)]));
    return { byStatus, total: counted.reduce((sum, row) => sum + Number(row.count), 0) };
  }
}
