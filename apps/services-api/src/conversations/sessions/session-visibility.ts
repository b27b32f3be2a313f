import { Principal } from '@platform/auth';
import { operatorMaySeeSession, SessionVisibilitySnapshot } from '@platform/conversations';

/**
 * Who may see which sessions of the tenant (docs/conversations.md#who-may-do-what),
 * stated once for every route: in code (`maySee`, for the routes that read
 * one session) and in SQL (`visibleSql`, for operation 11's list). A plugin
 * installed on the tenant sees every session; a plugin connection sees the
 * sessions of its own inboxes; an operator sees the listed ones plus those
 * assigned to them or that they took part in (`operatorMaySeeSession` of
 * `@platform/conversations`).
 */
export type SessionVisibility =
  | { kind: 'all' }
  | { kind: 'operator'; operatorID: string }
  | { kind: 'pluginConnection'; pluginConnectionID: string };

export function sessionVisibilityOf(principal: Principal): SessionVisibility {
  switch (principal.kind) {
    case 'operator':
      return { kind: 'operator', operatorID: principal.operatorID };
    case 'pluginConnection':
      return { kind: 'pluginConnection', pluginConnectionID: principal.pluginConnectionID };
    case 'plugin':
      return { kind: 'all' };
  }
}

/** What the rule reads of a session: the snapshot, and the plugin connection of its inbox. */
export interface VisibleSession extends SessionVisibilitySnapshot {
  pluginConnectionID: string | null;
}

export function maySee(visibility: SessionVisibility, session: VisibleSession): boolean {
  switch (visibility.kind) {
    case 'all':
      return true;
    case 'operator':
      return operatorMaySeeSession(visibility.operatorID, session);
    case 'pluginConnection':
      return session.pluginConnectionID === visibility.pluginConnectionID;
  }
}

/** The viewer's id the SQL rule takes as its parameter, none for a viewer who sees all. */
export function viewerIDOf(visibility: SessionVisibility): string | undefined {
  switch (visibility.kind) {
    case 'all':
      return undefined;
    case 'operator':
      return visibility.operatorID;
    case 'pluginConnection':
      return visibility.pluginConnectionID;
  }
}

/**
 * `maySee` in SQL, over the sessions row `alias`: `$1` is the tenant and
 * `viewer` the parameter holding `viewerIDOf` (none for 'all').
 */
export function visibleSql(kind: SessionVisibility['kind'], alias: string, viewer: string): string {
  switch (kind) {
    case 'all':
      return 'true';
    case 'operator':
      return `(${alias}.listed OR ${alias}.operator_id = ${viewer} OR ${viewer} = ANY (${alias}.operator_participants_ids))`;
    case 'pluginConnection':
      return `${alias}.inbox_id IN (SELECT i.id FROM inboxes i WHERE i.tenant_id = $1 AND i.plugin_connection_id = ${viewer})`;
  }
}
