/**
 * A session's state (docs/conversations.md#session-states): queued until an
 * operator takes it or an owner assigns it, assigned while it has an
 * assignee, closed for good once closed. A new inbound message after the
 * close opens a new session.
 */
export const SESSION_STATES = ['queued', 'assigned', 'closed'] as const;
export type SessionState = (typeof SESSION_STATES)[number];

/** The state follows from the stored columns, so no second column can disagree with them. */
export function sessionStateOf(session: { closedAt: Date | string | null; operatorID: string | null }): SessionState {
  if (session.closedAt !== null) return 'closed';
  return session.operatorID === null ? 'queued' : 'assigned';
}
