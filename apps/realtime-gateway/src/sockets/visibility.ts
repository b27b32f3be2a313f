import { StreamedEvent } from '../streams/streamed-event';

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
 * (`pluginConnectionID`).
 *
 * - An operator sees what operation 11 lists for them: listed sessions, and
 *   those assigned to them or that they take part in; and their own
 *   notification reads (`notifications.read` of `operator:<them>`).
 * - A plugin sees every session event of the tenant it connected for.
 * - A channel plugin connection sees the session and message events of its
 *   own inboxes.
 *
 * Anything malformed is not delivered: an event is shown only when the
 * snapshot says so.
 */
export function mayReceive(audience: Audience, event: StreamedEvent): boolean {
  const data = event.data;
  if (event.type === 'notifications.read') return audience.kind === 'operator' && data.operatorID === audience.operatorID;
  switch (audience.kind) {
    case 'plugin':
      return true;
    case 'pluginConnection':
      return data.pluginConnectionID === audience.pluginConnectionID;
    case 'operator':
      return (
        data.listed === true ||
        (data.operatorID === audience.operatorID && typeof data.operatorID === 'string') ||
        (Array.isArray(data.participantIDs) && data.participantIDs.includes(audience.operatorID))
      );
  }
}
