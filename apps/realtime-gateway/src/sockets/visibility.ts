import { operatorMaySeeSession, SessionVisibilitySnapshot } from '@platform/conversations';
import { StreamedEvent } from '../streams/streamed-event';

/** The events about one operator (subject `operator:<operatorID>`): theirs alone, never a plugin's or another operator's. */
const OPERATOR_EVENT_TYPES = new Set<string>(['notifications.read', 'notifications.counts']);

/** The events every operator of the tenant sees, and no plugin: an operator's presence is the team's, not a channel's. */
const TEAM_EVENT_TYPES = new Set<string>(['operator.presenceChanged']);

/** Who a socket delivers to, as far as visibility goes. */
export type Audience =
  | { kind: 'operator'; operatorID: string }
  | { kind: 'plugin'; pluginID: string }
  | { kind: 'pluginConnection'; pluginConnectionID: string };

/**
 * Whether a socket may receive an event of its tenant's stream, decided from
 * the event alone (no query): session and message events carry the
 * visibility snapshot of their commit (`listed`, `operatorID`,
 * `participantIDs`) and their inbox's channel connection
 * (`pluginConnectionID`), as docs/conversations.md#events lists them.
 *
 * - An operator sees what operation 11 lists for them, by the one shared rule
 *   (`operatorMaySeeSession` of `@platform/conversations`, which services-api
 *   applies to every conversation route); and their own notification
 *   events (`notifications.read`, `notifications.counts` of `operator:<them>`);
 *   and every operator's presence (`operator.presenceChanged`), tenant-wide.
 * - A plugin sees every session event of the tenant it connected for;
 *   neither a plugin nor a connection sees presence.
 * - A channel plugin connection sees the session and message events of its
 *   own inboxes.
 *
 * Anything malformed is not delivered: an event is shown only when the
 * snapshot says so.
 */
export function mayReceive(audience: Audience, event: StreamedEvent): boolean {
  const data = event.data;
  if (OPERATOR_EVENT_TYPES.has(event.type)) return audience.kind === 'operator' && data.operatorID === audience.operatorID;
  if (TEAM_EVENT_TYPES.has(event.type)) return audience.kind === 'operator';
  switch (audience.kind) {
    case 'plugin':
      return true;
    case 'pluginConnection':
      return data.pluginConnectionID === audience.pluginConnectionID;
    case 'operator': {
      const snapshot = visibilitySnapshotOf(data);
      return snapshot !== undefined && operatorMaySeeSession(audience.operatorID, snapshot);
    }
  }
}

/**
 * The event's visibility snapshot, when it has that shape. The stream is
 * written by the relay from our own outbox, but the shared rule trusts its
 * input's types: an absent field grants nothing (not listed, no assignee, no
 * participants), and a field of the wrong type (a string for an array)
 * yields no snapshot at all, so the event is not shown rather than shown
 * wrongly or thrown on.
 */
function visibilitySnapshotOf(data: Record<string, unknown>): SessionVisibilitySnapshot | undefined {
  const { listed = false, operatorID = null, participantIDs = [] } = data;
  if (typeof listed !== 'boolean') return undefined;
  if (operatorID !== null && typeof operatorID !== 'string') return undefined;
  if (!Array.isArray(participantIDs) || !participantIDs.every((id): id is string => typeof id === 'string')) return undefined;
  return { listed, operatorID, participantIDs };
}
