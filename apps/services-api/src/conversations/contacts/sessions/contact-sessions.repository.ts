import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { firstRow, rows, sql } from '@platform/database';
import { DataSource } from 'typeorm';
import { SessionDto } from './contact-session.dto';
import { SESSION_ROW_COLUMNS, SessionRow, toDto } from '../../sessions/session-row';
import { SessionVisibility, viewerIDOf, visibleSql } from '../../sessions/session-visibility';

type Kind = SessionVisibility['kind'];

/**
 * The page statement of a visibility, with its count: the page's ids come
 * from an index-only walk of sessions_contact_activity_idx (visibility is
 * checked on its INCLUDE columns), then only those sessions, their last
 * messages and summaries are read. The count is an uncorrelated subquery
 * (computed once); the outer join keeps one row when the page is empty.
 */
function pageText(kind: Kind): string {
  const viewerFilter = kind === 'all' ? '' : `AND ${visibleSql(kind, 'v', '$3')}`;
  const parameterCount = kind === 'all' ? 2 : 3;
  const offsetParameter = `$${parameterCount + 1}`;
  const limitParameter = `$${parameterCount + 2}`;
  return `WITH page AS (
         SELECT v.id, v.last_activity_at FROM sessions v
          WHERE v.tenant_id = $1 AND v.contact_id = $2 ${viewerFilter}
          ORDER BY v.last_activity_at DESC, v.id DESC
         OFFSET ${offsetParameter} LIMIT ${limitParameter}
       ), page_rows AS (
         SELECT ${SESSION_ROW_COLUMNS}, page.last_activity_at AS page_activity
           FROM page
           JOIN sessions s ON s.id = page.id
           LEFT JOIN messages m ON m.id = s.last_message_id
           LEFT JOIN session_summaries ss ON ss.session_id = s.id
       )
       SELECT ${visibleCount(kind)} AS total_count, page_rows.*
         FROM (SELECT 1) AS one
         LEFT JOIN page_rows ON true
        ORDER BY page_rows.page_activity DESC, page_rows.id DESC`;
}

type PageRow = SessionRow & { total_count: string };
/** The tenant, the contact, and the viewer's id unless the viewer sees all. */
type Params = [tenantID: string, contactID: string, ...viewer: string[]];

// Built once per visibility: the text depends on it only.
const KINDS: Kind[] = ['all', 'operator', 'pluginConnection'];
const COUNT = new Map(KINDS.map((kind) => [kind, sql<{ total: string }, Params>(`SELECT ${visibleCount(kind)} AS total`)]));
const PAGE = new Map(KINDS.map((kind) => [kind, sql<PageRow, [...Params, number, number]>(pageText(kind))]));

function paramsOf(scope: TenantScope, contactID: string, visibility: SessionVisibility): Params {
  const viewerID = viewerIDOf(visibility);
  return viewerID === undefined ? [scope.tenantID, contactID] : [scope.tenantID, contactID, viewerID];
}

@Injectable()
export class ContactSessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * How many of the contact's sessions the viewer may list, with no page
   * (for a page number past any real offset).
   */
  async countVisible(scope: TenantScope, contactID: string, visibility: SessionVisibility): Promise<number> {
    const counted = await firstRow(this.dataSource, COUNT.get(visibility.kind)!, paramsOf(scope, contactID, visibility));
    return Number(counted?.total);
  }

  /**
   * One page, most recently active first (last activity, then id, both
   * descending), and the viewer's visible count, in one statement (one round
   * trip). An offset past the last session gives an empty page.
   */
  async pageWithCount(
    scope: TenantScope,
    contactID: string,
    visibility: SessionVisibility,
    page: { offset: number; limit: number },
  ): Promise<{ totalCount: number; data: SessionDto[] }> {
    const found = await rows(this.dataSource, PAGE.get(visibility.kind)!, [...paramsOf(scope, contactID, visibility), page.offset, page.limit]);
    return { totalCount: Number(found[0].total_count), data: found.filter((row) => row.id !== null).map(toDto) };
  }
}

/**
 * SQL of the number of the contact's sessions the viewer may list. The
 * contact's total and listed counts are trigger-kept counters; an operator
 * adds the unlisted sessions they are on, read from a partial index of
 * unlisted sessions (so the cost follows the contact's unlisted sessions
 * only); a plugin connection counts the contact's sessions on its inboxes.
 */
function visibleCount(kind: Kind): string {
  switch (kind) {
    case 'all':
      return 'coalesce((SELECT total FROM contact_session_counts WHERE tenant_id = $1 AND contact_id = $2), 0)';
    case 'operator':
      return `(coalesce((SELECT listed FROM contact_session_counts WHERE tenant_id = $1 AND contact_id = $2), 0)
            + (SELECT count(*) FROM sessions s
                WHERE s.tenant_id = $1 AND s.contact_id = $2 AND NOT s.listed AND ${visibleSql('operator', 's', '$3')}))`;
    case 'pluginConnection':
      return `(SELECT count(*) FROM sessions s WHERE s.tenant_id = $1 AND s.contact_id = $2 AND ${visibleSql('pluginConnection', 's', '$3')})`;
  }
}
