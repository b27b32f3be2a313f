/**
 * The outbox events that flow to sockets (docs/realtime.md, Events): the
 * conversation events. Everything else in the outbox (members, plugins,
 * domains) is for webhooks only and is never streamed.
 */
export const REALTIME_EVENT_TYPES = [
  'message.created',
  'message.statusChanged',
  'session.opened',
  'session.assigned',
  'session.transferred',
  'session.participantJoined',
  'session.closed',
  'notifications.read',
  'notifications.counts',
] as const;

export type RealtimeEventType = (typeof REALTIME_EVENT_TYPES)[number];

const STREAMED = new Set<string>(REALTIME_EVENT_TYPES);

export function isRealtimeEventType(type: string): type is RealtimeEventType {
  return STREAMED.has(type);
}

/** One event as it sits in a tenant's stream and reaches a socket: the outbox row's id, type, instant, subject and data. */
export interface StreamedEvent {
  id: string;
  type: string;
  /** The outbox's instant to the microsecond (ISO 8601, UTC). */
  occurredAt: string;
  /** The ordering subject (`session:<id>`, `operator:<id>`), or null. */
  subject: string | null;
  data: Record<string, unknown>;
}

/** A verified stream entry: where it sits (offset), which incarnation of the stream (epoch), and the event. */
export interface StreamEntry {
  offset: string;
  epoch: string;
  event: StreamedEvent;
}
