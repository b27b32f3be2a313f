import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { rows, Sql, sql } from '@platform/database';
import { DataSource } from 'typeorm';
import type { CampaignModelDto, SortField } from './campaign-model.dto';
import type { CampaignModelFilters } from './campaign-model-filters';
import { VIEW_COLUMNS } from './campaign-models.repository';

export interface ListRequest {
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

type ListRow = CampaignModelDto & { totalCount: string };
/** The tenant, the page's offset (a decimal string: pages reach 2^53) and size, then one value per filter. */
type ListParams = [tenantID: string, offset: string, perPage: number, ...filters: unknown[]];

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
  /**
   * Statements by sort and WHERE text. Each present filter binds the next
   * parameter, so the text follows which filters are present, never their
   * values: at most a few hundred entries, each built once.
   */
  private readonly statements = new Map<string, Sql<ListRow, ListParams>>();

  constructor(private readonly dataSource: DataSource) {}

  async list(scope: TenantScope, request: ListRequest): Promise<{ totalCount: number; data: CampaignModelDto[] }> {
    const { statement, parameters } = this.statementOf(scope.tenantID, request);
    const found = await rows(this.dataSource, statement, parameters);
    const totalCount = Number(found[0]?.totalCount ?? 0);
    const data = found
      .filter((row) => row.campaignModelID !== null)
      .map(({ totalCount: _total, ...model }) => model as CampaignModelDto);
    return { totalCount, data };
  }

  /**
   * The statement's text follows the sort and which filters are present (each
   * present filter binds the next parameter). Exposed, with a bare tenant id,
   * for the benchmark's EXPLAIN output.
   */
  statementOf(tenantID: string, request: ListRequest): { statement: Sql<ListRow, ListParams>; parameters: ListParams } {
    const offset = (BigInt(request.page - 1) * BigInt(request.perPage)).toString();
    const parameters: ListParams = [tenantID, offset, request.perPage];
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
    const where = conditions.join(' AND ');
    const key = `${request.sortField} ${request.descending ? 'DESC' : 'ASC'} ${where}`;
    let statement = this.statements.get(key);
    if (!statement) {
      statement = sql<ListRow, ListParams>(textOf(request, where, conditions.length > 2));
      this.statements.set(key, statement);
    }
    return { statement, parameters };
  }
}

/** The statement for a sort and the WHERE of the filters present (`narrowed`: any beyond tenant and liveness). */
function textOf(request: ListRequest, where: string, narrowed: boolean): string {
  const columns = SORT_COLUMNS[request.sortField];
  const orderBy = (descending: boolean, alias = 'm') => columns.map((column) => `${alias}.${column} ${descending ? 'DESC' : 'ASC'}`).join(', ');
  const keyColumns = columns.map((column) => `m.${column}`).join(', ');
  const total = narrowed
    ? `SELECT count(*) AS n FROM campaign_models m WHERE ${where}`
    : `SELECT COALESCE((SELECT live_count FROM campaign_model_counts WHERE tenant_id = $1), 0) AS n`;

  return `
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
}
