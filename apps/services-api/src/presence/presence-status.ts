import type { PresenceStatus } from '@platform/database';

export { PRESENCE_STATUSES } from '@platform/database';
export type { PresenceStatus } from '@platform/database';

/** What the operator's socket leases say, as of one instant of the database. */
export interface SocketFacts {
  /** A lease was seen within the offline grace: a socket is open, or closed less than the grace ago. */
  live: boolean;
  /** The last activity of those leases is older than the away threshold. */
  idle: boolean;
}

/**
 * The status in effect (docs/presence.md#rules): the chosen status, unless
 * the operator chose offline, or no socket of theirs was seen within the
 * grace (offline), or they chose online and their sockets were idle past
 * the away threshold (away). The same rule, in SQL, finds the operators the
 * reconciler must move (presence.repository.ts): both take the booleans the
 * database computed, so they cannot disagree on an instant.
 */
export function effectivePresence(chosen: PresenceStatus, facts: SocketFacts): PresenceStatus {
  if (chosen === 'offline' || !facts.live) return 'offline';
  if (chosen === 'online' && facts.idle) return 'away';
  return chosen;
}
