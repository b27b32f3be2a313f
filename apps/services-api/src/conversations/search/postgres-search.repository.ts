import { Injectable } from '@nestjs/common';
import type { ConversationMessageDto } from '@platform/conversations';
import { rows, sql, SqlRunner } from '@platform/database';
import { isQueryCanceled } from '@platform/errors';
import { DataSource } from 'typeorm';
import { SessionVisibility, viewerIDOf, visibleSql } from '../sessions/session-visibility';
import { messagesStatement } from '../messages/messages.repository';
import { containsPattern } from '../shortcuts/like-pattern';
import type { ContactSearchPosition, ConversationSearch, Found, FoundContact, MessageSearchPosition, SearchQuery } from './conversation-search';

type Kind = SessionVisibility['kind'];
/** The tenant, the text, the position after which the page starts (time and id, or nulls), the limit, and the viewer's id unless the viewer sees all. */
type Params = [tenantID: string, text: string, afterAt: string | null, afterID: string | null, limit: number, ...viewer: string[]];

/** The text search configuration of `messages_search_idx` (the migration's): queries must be parsed under the same one. */
const TEXT_SEARCH_CONFIGURATION = 'simple';

/**
 * A message's words: exactly the expression `messages_search_idx` indexes
 * (migration 1765230000000-conversation-search), or PostgreSQL would not use
 * the index. Only a text message has words: its value is a JSON string.
 */
const MESSAGE_WORDS = `to_tsvector('simple'::regconfig, CASE WHEN jsonb_typeof(value) = 'string' THEN value #>> '{}' ELSE '' END)`;

/** The viewer's rule on the sessions row `s`, as an extra condition; none for a viewer who sees all. */
function visibleSessionCondition(kind: Kind, session: string): string {
  return kind === 'all' ? '' : `AND EXISTS (SELECT 1 FROM sessions s WHERE s.tenant_id = $1 AND ${session} AND ${visibleSql(kind, 's', '$6')})`;
}

/**
 * The text messages of the tenant holding the query's words, newest first.
 * For a rare word, a bitmap scan of messages_search_idx (tenant_id, the
 * message's words) gives the tenant's matches, which are sorted; for a common
 * one, a backward walk of messages_tenant_time_idx stops at a full page. The
 * session's visibility is checked per match. `websearch_to_tsquery` accepts any text (an operator it cannot
 * read is a word or nothing), so no query is a syntax error.
 */
function messagesText(kind: Kind, columns: string): string {
  return `SELECT ${columns} FROM messages
           WHERE tenant_id = $1
             AND ${MESSAGE_WORDS} @@ websearch_to_tsquery('${TEXT_SEARCH_CONFIGURATION}', $2)
             AND ($3::timestamptz IS NULL OR (created_at, id) < ($3::timestamptz, $4::uuid))
             ${visibleSessionCondition(kind, 's.id = messages.session_id')}
           ORDER BY created_at DESC, id DESC
           LIMIT $5`;
}

interface ContactRow {
  id: string;
  name: string;
  handles: { channel: string; handle: string }[];
  created_at: Date;
  /** `created_at` to the microsecond: the keyset of the results. */
  created_at_exact: string;
}

/**
 * The tenant's contacts matched one way (`condition` on the contacts row
 * `alias`), visible to the viewer, newest first after the position: one page
 * at most. Each way on its own, PostgreSQL picks its plan by how many
 * contacts it expects to match: a rare part through its trigram index
 * (contacts_name_trgm_idx, contact_handles_handle_trgm_idx, both led by
 * tenant_id) and a sort of the matches, a common one by a walk of
 * the tenant's contacts newest first that stops at a full page.
 */
function contactsMatchedText(kind: Kind, alias: string, condition: string): string {
  return `SELECT ${alias}.id, ${alias}.created_at FROM contacts ${alias}
           WHERE ${alias}.tenant_id = $1
             AND ${condition}
             AND ($3::timestamptz IS NULL OR (${alias}.created_at, ${alias}.id) < ($3::timestamptz, $4::uuid))
             ${visibleSessionCondition(kind, `s.contact_id = ${alias}.id`)}
           ORDER BY ${alias}.created_at DESC, ${alias}.id DESC
           LIMIT $5`;
}

/**
 * The tenant's contacts whose name or one of whose handles contains the
 * pattern (ILIKE), newest first, each with all its handles: the page of
 * name matches and the page of handle matches, merged. One condition with an
 * OR of the two would leave PostgreSQL a single plan for both, a walk of
 * every contact of the tenant checking each name, however rare the part
 * (docs/search.md has the figures); a contact matched both ways is one row
 * of the UNION.
 */
function contactsText(kind: Kind): string {
  const byName = contactsMatchedText(kind, 'n', 'n.name ILIKE $2');
  const byHandle = contactsMatchedText(kind, 'hc', 'hc.id IN (SELECT h.contact_id FROM contact_handles h WHERE h.tenant_id = $1 AND h.handle ILIKE $2)');
  return `WITH matched AS ((${byName}) UNION (${byHandle}))
          SELECT c.id, c.name, c.created_at,
                 to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at_exact,
                 coalesce((SELECT json_agg(json_build_object('channel', h.channel, 'handle', h.handle) ORDER BY h.channel, h.handle)
                             FROM contact_handles h WHERE h.tenant_id = $1 AND h.contact_id = c.id), '[]'::json) AS handles
            FROM matched
            JOIN contacts c ON c.tenant_id = $1 AND c.id = matched.id
           ORDER BY c.created_at DESC, c.id DESC
           LIMIT $5`;
}

/**
 * How long a message search may run on the plan PostgreSQL picked before it
 * is run again on messages_search_idx. The planner knows how frequent a word
 * is in the tenant, not when it was used: a word frequent in old messages
 * and absent from recent ones (a strike, a recall, last year's campaign)
 * gets the backward walk of messages_tenant_time_idx, which then checks the
 * words of every newer message, about 5 microseconds each (seconds for a
 * tenant with a million messages; docs/search.md has the figures). The
 * index's matches, fetched and sorted, give the same page at a cost that
 * follows the number of matches. A search that fits its budget pays for it
 * a transaction and a SET, nothing else.
 */
export const MESSAGE_SEARCH_PLAN_BUDGET_MS = 250;

// Built once per visibility: the text depends on it only.
const KINDS: Kind[] = ['all', 'operator', 'pluginConnection'];
const MESSAGES = new Map(KINDS.map((kind) => [kind, messagesStatement<Params>((columns) => messagesText(kind, columns))]));
const CONTACTS = new Map(KINDS.map((kind) => [kind, sql<ContactRow, Params>(contactsText(kind))]));

function paramsOf(query: SearchQuery<{ createdAt: string }>, text: string, afterID: string | undefined): Params {
  const viewerID = viewerIDOf(query.visibility);
  const params: Params = [query.scope.tenantID, text, query.after?.createdAt ?? null, afterID ?? null, query.limit];
  return viewerID === undefined ? params : [...params, viewerID];
}

/** `ConversationSearch` in PostgreSQL (docs/search.md): full-text search on messages, trigram matching on contacts. */
@Injectable()
export class PostgresSearch implements ConversationSearch {
  constructor(private readonly dataSource: DataSource) {}

  async messages(query: SearchQuery<MessageSearchPosition>): Promise<Found<ConversationMessageDto, MessageSearchPosition>[]> {
    const statement = MESSAGES.get(query.visibility.kind)!;
    const params = paramsOf(query, query.text, query.after?.messageID);
    const found = await this.withinPlanBudget((runner) => statement.run(runner, params));
    return found.map(({ message, position }) => ({ result: message, position }));
  }

  /**
   * `search` on the planner's plan within MESSAGE_SEARCH_PLAN_BUDGET_MS, else
   * again with index scans (the time walk) off, which leaves PostgreSQL the
   * bitmap scan of messages_search_idx: the same statement, so the same
   * answer. The second run keeps the connection's own statement timeout.
   */
  private async withinPlanBudget<T>(search: (runner: SqlRunner) => Promise<T>): Promise<T> {
    try {
      return await this.dataSource.transaction(async (manager) => {
        await manager.query(`SET LOCAL statement_timeout = ${MESSAGE_SEARCH_PLAN_BUDGET_MS}`);
        return search(manager);
      });
    } catch (error) {
      if (!isQueryCanceled(error)) throw error;
      return this.dataSource.transaction(async (manager) => {
        await manager.query('SET LOCAL enable_indexscan = off');
        return search(manager);
      });
    }
  }

  async contacts(query: SearchQuery<ContactSearchPosition>): Promise<Found<FoundContact, ContactSearchPosition>[]> {
    const found = await rows(this.dataSource, CONTACTS.get(query.visibility.kind)!, paramsOf(query, containsPattern(query.text), query.after?.contactID));
    return found.map((row) => ({
      result: { contactID: row.id, name: row.name, handles: row.handles, createdAt: row.created_at.toISOString() },
      position: { createdAt: row.created_at_exact, contactID: row.id },
    }));
  }
}
