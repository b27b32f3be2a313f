import { Injectable } from '@nestjs/common';
import { CAMPAIGN_STATUSES } from '@platform/database';
import { DataSource } from 'typeorm';

export interface CampaignStats {
  byStatus: Record<string, number>;
  total: number;
}

@Injectable()
export class CampaignsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Operation 6 in one query: every known status (zero where the tenant has
   * none), counted with one GROUP BY over the (tenant_id, status) index.
   */
  async stats(tenantID: string): Promise<CampaignStats> {
    const rows: { status: string; count: string }[] = await this.dataSource.query(
      `SELECT known.status, COALESCE(counted.count, 0) AS count
         FROM unnest($2::text[]) WITH ORDINALITY AS known (status, position)
         LEFT JOIN (SELECT status, count(*) AS count FROM campaigns WHERE tenant_id = $1 GROUP BY status) counted
           ON counted.status = known.status
        ORDER BY known.position`,
      [tenantID, CAMPAIGN_STATUSES],
    );
    const byStatus = Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
    return { byStatus, total: rows.reduce((sum, row) => sum + Number(row.count), 0) };
  }
}
