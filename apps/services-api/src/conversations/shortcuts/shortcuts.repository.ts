import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { firstRow, rows, ShortcutContent, ShortcutScope, sql } from '@platform/database';
import { DataSource } from 'typeorm';
import { ShortcutDto } from './shortcut.dto';
import { RangeSlice } from './page-split';

interface ShortcutRow {
  id: string;
  tenant_id: string;
  organization_id: string;
  operator_id: string;
  scope: ShortcutScope;
  bang: string;
  preview: string;
  contents: ShortcutContent[];
  created_at: Date;
  updated_at: Date;
}

/** The columns of a shortcut and the order of operation 7 over `alias`. */
const COLUMNS = (alias: string) =>
  `${alias}.id, ${alias}.tenant_id, ${alias}.organization_id, ${alias}.operator_id, ${alias}.scope, ${alias}.bang,
   ${alias}.preview, ${alias}.contents, ${alias}.created_at, ${alias}.updated_at`;

/**
 * Personal before company-wide, then the bang under `shortcut_bang_order`
 * (case- and accent-insensitive), then the id: a total order.
 */
const ORDER = (alias: string) =>
  `(${alias}.scope = 'tenant-based'), ${alias}.bang COLLATE shortcut_bang_order, ${alias}.id`;

/** The order within one range, or its reverse for a slice read from the end (both walk the same index). */
const rangeOrder = (slice: RangeSlice) =>
  slice.backward ? 'bang COLLATE shortcut_bang_order DESC, id DESC' : 'bang COLLATE shortcut_bang_order, id';

function toDto(row: ShortcutRow): ShortcutDto {
  return {
    shortcutID: row.id,
    tenantID: row.tenant_id,
    organizationID: row.organization_id,
    operatorID: row.operator_id,
    shortcutBang: row.bang,
    shortcutPreview: row.preview,
    shortcutScope: row.scope,
    shortcutContents: row.contents,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const COUNTS = sql<{ personal: string; company: string }, [tenantID: string, operatorID: string]>(
  `SELECT coalesce(sum(total) FILTER (WHERE scope = 'user-based'), 0) AS personal,
              coalesce(sum(total) FILTER (WHERE scope = 'tenant-based'), 0) AS company
         FROM shortcut_counts
        WHERE tenant_id = $1
          AND ((scope = 'user-based' AND owner_id = $2)
            OR (scope = 'tenant-based' AND owner_id = '00000000-0000-0000-0000-000000000000'))`,
);

type PageParams = [tenantID: string, operatorID: string, personalOffset: number, personalLimit: number, companyOffset: number, companyLimit: number];

/** The page statement for the directions its two slices are read in. */
const pageStatement = (personal: RangeSlice, company: RangeSlice) =>
  sql<ShortcutRow, PageParams>(
    `WITH page AS (
         (SELECT id FROM shortcuts
           WHERE tenant_id = $1 AND scope = 'user-based' AND operator_id = $2
           ORDER BY ${rangeOrder(personal)} OFFSET $3 LIMIT $4)
         UNION ALL
         (SELECT id FROM shortcuts
           WHERE tenant_id = $1 AND scope = 'tenant-based'
           ORDER BY ${rangeOrder(company)} OFFSET $5 LIMIT $6)
       )
       SELECT ${COLUMNS('s')} FROM page JOIN shortcuts s ON s.id = page.id
        ORDER BY ${ORDER('s')}`,
  );

const [FORWARD, BACKWARD] = [{ offset: 0, limit: 0 }, { offset: 0, limit: 0, backward: true }];
/** Built once, by [personal backward][company backward]: the text depends on the directions only. */
const PAGES = [
  [pageStatement(FORWARD, FORWARD), pageStatement(FORWARD, BACKWARD)],
  [pageStatement(BACKWARD, FORWARD), pageStatement(BACKWARD, BACKWARD)],
];

const SEARCH = sql<
  Omit<ShortcutRow, 'id'> & { id: string | null; total_count: string },
  [tenantID: string, operatorID: string, scope: ShortcutScope | null, pattern: string, offset: string, limit: number]
>(
  `WITH matches AS MATERIALIZED (
         SELECT id, scope, bang FROM shortcuts
          WHERE tenant_id = $1
            AND (scope = 'tenant-based' OR operator_id = $2)
            AND ($3::text IS NULL OR scope = $3)
            AND (bang ILIKE $4 OR preview ILIKE $4)
       ), page AS (
         SELECT m.id FROM matches m ORDER BY ${ORDER('m')} OFFSET $5 LIMIT $6
       )
       SELECT counted.total_count, ${COLUMNS('s')}
         FROM (SELECT count(*) AS total_count FROM matches) counted
         LEFT JOIN (page JOIN shortcuts s ON s.id = page.id) ON true
        ORDER BY ${ORDER('s')}`,
);

/** Personal shortcuts are the operator's own only; company-wide ones are the tenant's. */
@Injectable()
export class ShortcutsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The operator's personal count and the tenant's company-wide count, from the trigger-kept counters. */
  async countVisible(scope: TenantScope, operatorID: string): Promise<{ personal: number; company: number }> {
    const counted = await firstRow(this.dataSource, COUNTS, [scope.tenantID, operatorID]);
    return { personal: Number(counted?.personal), company: Number(counted?.company) };
  }

  /**
   * One page laid over the two ranges: a slice of the personal range and a
   * slice of the company-wide one. Each slice walks its own index (index-only,
   * so skipped rows cost no heap reads; backwards for a slice read from the
   * range's end), then the page's rows are fetched and put in list order.
   */
  async page(scope: TenantScope, operatorID: string, personal: RangeSlice, company: RangeSlice): Promise<ShortcutDto[]> {
    const statement = PAGES[personal.backward ? 1 : 0][company.backward ? 1 : 0];
    const found = await rows(this.dataSource, statement, [scope.tenantID, operatorID, personal.offset, personal.limit, company.offset, company.limit]);
    return found.map(toDto);
  }

  /**
   * Shortcuts whose bang or preview contains the pattern (ILIKE, served by the
   * trigram indexes), with their exact count: both cost in proportion to the
   * matches, never to the tenant. `offset` is a decimal string (pages reach 2^53).
   */
  async search(
    scope: TenantScope,
    operatorID: string,
    filter: { scope?: ShortcutScope; pattern: string },
    page: { offset: string; limit: number },
  ): Promise<{ totalCount: number; data: ShortcutDto[] }> {
    const found = await rows(this.dataSource, SEARCH, [scope.tenantID, operatorID, filter.scope ?? null, filter.pattern, page.offset, page.limit]);
    return {
      totalCount: Number(found[0].total_count),
      // The outer join answers one row of nulls when no shortcut matches.
      data: found.filter((row): row is ShortcutRow & { total_count: string } => row.id !== null).map(toDto),
    };
  }
}
