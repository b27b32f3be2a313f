import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CampaignModelView, SortField } from './campaign-model.dto';
import type { CampaignModelFilters } from './campaign-model-filters';
import { VIEW_COLUMNS } from './campaign-models.repository';

export interface ListRequest {
  tenantID: string;
  page: number;
  perPage: number;
  sortField: SortField;
  descending: boolean;
  search?: string;
  filters?: CampaignModelFilters;
}

const SORT_COLUMNS: Record<SortField, string[]> = {
  createdAt: ['created_at', 'id'],
  campaignModelID: ['id'],
};

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/**
 * Operation 4's one SQL statement (one snapshot, so meta and rows agree):
 *
 * - totalCount: the maintained per-tenant count (campaign_model_counts) when
 *   nothing narrows the list, else a count of the matching rows, served by
 *   the filter and trigram indexes;
 * - a page past the end reads no rows at all (LIMIT 0);
 * - the page's ids come from an index-only scan of the sort index, walked
 *   from whichever end is nearer, so the last page costs what the first does;
 *   only those ids' rows are then read.
 */
@Injectable()
export class CampaignModelsListRepository {
  constructor(private readonly dataSource: DataSource) {}

  async list(request: ListRequest): Promise<{ totalCount: number; data: CampaignModelView[] }> {
    const { sql, parameters } = this.statementOf(request);
    const rows: (CampaignModelView & { totalCount: string })[] = await this.dataSource.query(sql, parameters);
    const totalCount = Number(rows[0]?.totalCount ?? 0);
    const data = rows
      .filter((row) => row.campaignModelID !== null)
      .map(({ totalCount: _total, ...model }) => model as CampaignModelView);
    return { totalCount, data };
  }

  /** Exposed for the benchmark's EXPLAIN output. */
  statementOf(request: ListRequest): { sql: string; parameters: unknown[] } {
    const offset = (BigInt(request.page - 1) * BigInt(request.perPage)).toString();
    const parameters: unknown[] = [request.tenantID, offset, request.perPage];
    const conditions = ['m.tenant_id = $1', 'm.deleted_at IS NULL'];
    const bind = (value: unknown) => {
      parameters.push(value);
      return `$${parameters.length}`;
    };
    const filters = request.filters ?? {};
    if (filters.statuses) conditions.push(`m.status = ANY(${bind(filters.statuses)}::text[])`);
    if (filters.types) conditions.push(`m.type = ANY(${bind(filters.types)}::text[])`);
    if (filters.channels) conditions.push(`m.channel = ANY(${bind(filters.channels)}::text[])`);
    if (filters.channelIDs) conditions.push(`m.channel_id = ANY(${bind(filters.channelIDs)}::uuid[])`);
    if (filters.tags) conditions.push(`m.tags @> ${bind(filters.tags)}::text[]`);
    if (filters.externalID !== undefined) conditions.push(`m.external_id = ${bind(filters.externalID)}`);
    if (request.search !== undefined) conditions.push(`m.name ILIKE ${bind(`%${escapeLike(request.search)}%`)}`);
    const narrowed = conditions.length > 2;
    const where = conditions.join(' AND ');

    const columns = SORT_COLUMNS[request.sortField];
    const orderBy = (descending: boolean, alias = 'm') => columns.map((column) => `${alias}.${column} ${descending ? 'DESC' : 'ASC'}`).join(', ');
    const keyColumns = columns.map((column) => `m.${column}`).join(', ');
    const total = narrowed
      ? `SELECT count(*) AS n FROM campaign_models m WHERE ${where}`
      : `SELECT COALESCE((SELECT live_count FROM campaign_model_counts WHERE tenant_id = $1), 0) AS n`;

    const sql = `
      WITH total AS MATERIALIZED (${total}),
      plan AS MATERIALIZED (
        SELECT n, CASE WHEN $2::bigint >= n THEN 'none'
                       WHEN $2::bigint <= n - $2::bigint - $3::int THEN 'forward'
                       ELSE 'reverse' END AS way
          FROM total
      ),
      forward_keys AS (
        SELECT ${keyColumns} FROM campaign_models m WHERE ${where}
         ORDER BY ${orderBy(request.descending)}
         LIMIT (SELECT CASE WHEN way = 'forward' THEN $3::int ELSE 0 END FROM plan)
        OFFSET (SELECT CASE WHEN way = 'forward' THEN $2::bigint ELSE 0 END FROM plan)
      ),
      reverse_keys AS (
        SELECT ${keyColumns} FROM campaign_models m WHERE ${where}
         ORDER BY ${orderBy(!request.descending)}
         LIMIT (SELECT CASE WHEN way = 'reverse' THEN LEAST($3::int, n - $2::bigint) ELSE 0 END FROM plan)
        OFFSET (SELECT CASE WHEN way = 'reverse' THEN GREATEST(n - $2::bigint - $3::int, 0) ELSE 0 END FROM plan)
      ),
      page_keys AS (SELECT id FROM forward_keys UNION ALL SELECT id FROM reverse_keys)
      SELECT plan.n AS "totalCount", ${VIEW_COLUMNS}
        FROM plan
        -- An array of at most perPage ids: read by primary key, never a join the planner could hash.
        LEFT JOIN campaign_models m ON m.id = ANY (ARRAY(SELECT id FROM page_keys)) AND m.tenant_id = $1
       ORDER BY ${orderBy(request.descending)}`;
    return { sql, parameters };
  }
}
