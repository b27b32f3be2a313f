/**
 * The filters of an inbox's session queue (docs/conversations.md#reading).
 * `state` is a session's state (`sessionStateOf`: queued, assigned, closed)
 * or `open`, not closed (queued or assigned). `assignee` is `mine` (the
 * calling operator), `unassigned` (no assignee), `someone` (any assignee) or
 * an operator's id.
 */
export const QUEUE_STATES = ['queued', 'assigned', 'open', 'closed'] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

export const ASSIGNEE_WORDS = ['mine', 'unassigned', 'someone'] as const;

/** The assignee filter, `mine` resolved to the caller's id. */
export type AssigneeFilter = { kind: 'unassigned' } | { kind: 'someone' } | { kind: 'operator'; operatorID: string };

/** SQL of each state over the sessions row `alias`. */
export function stateSql(state: QueueState, alias: string): string {
  switch (state) {
    case 'queued':
      return `${alias}.closed_at IS NULL AND ${alias}.operator_id IS NULL`;
    case 'assigned':
      return `${alias}.closed_at IS NULL AND ${alias}.operator_id IS NOT NULL`;
    case 'open':
      return `${alias}.closed_at IS NULL`;
    case 'closed':
      return `${alias}.closed_at IS NOT NULL`;
  }
}

/** SQL of an assignee filter over `alias`; `operator` the parameter holding its id. */
export function assigneeSql(kind: AssigneeFilter['kind'], alias: string, operator: string): string {
  switch (kind) {
    case 'unassigned':
      return `${alias}.operator_id IS NULL`;
    case 'someone':
      return `${alias}.operator_id IS NOT NULL`;
    case 'operator':
      return `${alias}.operator_id = ${operator}`;
  }
}

/**
 * A session's activity, the queue's order: its last message or its last
 * change (take, assign, transfer, join, close), whichever is later. Indexed
 * as this expression (sessions_inbox_activity_idx and its open-only twin).
 */
export function activitySql(alias: string): string {
  return `GREATEST(${alias}.last_activity_at, ${alias}.updated_at)`;
}
