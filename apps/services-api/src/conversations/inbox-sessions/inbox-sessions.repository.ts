import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { ConversationSessionDto, sessionStateOf } from '@platform/conversations';
import { firstRow, rows, sql, Sql } from '@platform/database';
import { DataSource } from 'typeorm';
import { SESSION_ROW_COLUMNS, SessionRow, toDto } from '../sessions/session-row';
import { SessionVisibility, viewerIDOf, visibleSql } from '../sessions/session-visibility';
import type { ExactTimeAndID } from '../../exact-time-position';
import { exactTimeSql } from '../../exact-time-position';
import { activitySql, AssigneeFilter, assigneeSql, QueueState, stateSql } from './inbox-session-filters';

/** Who reads an inbox's queue: an operator, or a plugin connection (on its own inbox). */
export type QueueVisibility = Exclude<SessionVisibility, { kind: 'all' }>;

export interface QueueFilters {
  state?: QueueState;
  assignee?: AssigneeFilter;
}

/** A session of the queue and its place in it. */
export interface QueuedSession {
  session: ConversationSessionDto;
  position: ExactTimeAndID;
}

type PageRow = SessionRow & { activity_exact: string };
type PageParams = [tenantID: string, inboxID: string, afterAt: string | null, afterID: string | null, limit: number, viewerID: string, ...assignee: string[]];

/**
 * One page of the inbox's sessions, most recently active first, after a
 * keyset position (exclusive): the ids come from a walk of
 * sessions_inbox_activity_idx (sessions_inbox_open_activity_idx when the
 * state excludes closed sessions) from the cursor, the filters and the
 * visibility rule checked on its INCLUDE columns; then only those sessions,
 * their last messages and summaries are read. `$6` is the viewer, `$7` the
 * assignee filter's operator.
 */
function pageText(kind: QueueVisibility['kind'], filters: { state?: QueueState; assignee?: AssigneeFilter['kind'] }): string {
  const activity = activitySql('v');
  const conditions = [
    'v.tenant_id = $1',
    'v.inbox_id = $2',
    visibleSql(kind, 'v', '$6'),
    ...(filters.state ? [stateSql(filters.state, 'v')] : []),
    ...(filters.assignee ? [assigneeSql(filters.assignee, 'v', '$7')] : []),
    `($3::timestamptz IS NULL OR (${activity}, v.id) < ($3::timestamptz, $4::uuid))`,
  ];
  return `WITH page AS (
         SELECT v.id, ${activity} AS activity_at FROM sessions v
          WHERE ${conditions.join('\n            AND ')}
          ORDER BY ${activity} DESC, v.id DESC
          LIMIT $5
       )
       SELECT ${SESSION_ROW_COLUMNS}, ${exactTimeSql('page.activity_at')} AS activity_exact
         FROM page
         JOIN sessions s ON s.id = page.id
         LEFT JOIN messages m ON m.id = s.last_message_id
         LEFT JOIN session_summaries ss ON ss.session_id = s.id
        ORDER BY page.activity_at DESC, page.id DESC`;
}

/**
 * The queue's counts: exact, over the inbox's open sessions the viewer may
 * see (sessions_inbox_open_activity_idx), so their cost follows the live
 * queue, never the inbox's closed past (which is why closed is not counted).
 * `mine` only for an operator (`$3`).
 */
function countsText(kind: QueueVisibility['kind']): string {
  const mine = kind === 'operator' ? 'count(*) FILTER (WHERE v.operator_id = $3)' : 'NULL::bigint';
  return `SELECT count(*) FILTER (WHERE v.operator_id IS NULL) AS queued,
                 count(*) FILTER (WHERE v.operator_id IS NOT NULL) AS assigned,
                 count(*) AS open,
                 ${mine} AS mine
            FROM sessions v
           WHERE v.tenant_id = $1 AND v.inbox_id = $2 AND v.closed_at IS NULL AND ${visibleSql(kind, 'v', '$3')}`;
}

type CountsRow = { queued: string; assigned: string; open: string; mine: string | null };

// Each statement's text depends on the viewer's kind and the filters only: built once each, on first use.
const PAGES = new Map<string, Sql<PageRow, PageParams>>();
export function pageStatement(kind: QueueVisibility['kind'], filters: QueueFilters): Sql<PageRow, PageParams> {
  const shape = { state: filters.state, assignee: filters.assignee?.kind };
  const key = `${kind}:${shape.state ?? ''}:${shape.assignee ?? ''}`;
  let statement = PAGES.get(key);
  if (!statement) PAGES.set(key, (statement = sql<PageRow, PageParams>(pageText(kind, shape))));
  return statement;
}
const COUNTS = {
  operator: sql<CountsRow, [tenantID: string, inboxID: string, viewerID: string]>(countsText('operator')),
  pluginConnection: sql<CountsRow, [tenantID: string, inboxID: string, viewerID: string]>(countsText('pluginConnection')),
};

export interface QueueCounts {
  queued: number;
  assigned: number;
  open: number;
  mine: number | null;
}

/** An inbox's sessions as a queue: keyset pages by activity, and the counts of its open sessions. */
@Injectable()
export class InboxSessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async page(scope: TenantScope, inboxID: string, visibility: QueueVisibility, filters: QueueFilters, after: ExactTimeAndID | undefined, limit: number): Promise<QueuedSession[]> {
    const assignee = filters.assignee?.kind === 'operator' ? [filters.assignee.operatorID] : [];
    const params: PageParams = [scope.tenantID, inboxID, after?.at ?? null, after?.id ?? null, limit, viewerIDOf(visibility)!, ...assignee];
    const found = await rows(this.dataSource, pageStatement(visibility.kind, filters), params);
    return found.map((row) => {
      const session = toDto(row);
      return { session: { ...session, sessionState: sessionStateOf(session) }, position: { at: row.activity_exact, id: row.id } };
    });
  }

  async counts(scope: TenantScope, inboxID: string, visibility: QueueVisibility): Promise<QueueCounts> {
    const row = (await firstRow(this.dataSource, COUNTS[visibility.kind], [scope.tenantID, inboxID, viewerIDOf(visibility)!]))!;
    return { queued: Number(row.queued), assigned: Number(row.assigned), open: Number(row.open), mine: row.mine === null ? null : Number(row.mine) };
  }
}
