// The streamed types are the outbox's to name (libs/webhooks): its emits nudge the relay for the same types.
export { isRealtimeEventType, REALTIME_EVENT_TYPES } from '@platform/webhooks';
export type { RealtimeEventType } from '@platform/webhooks';

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

/**
 * An entry that was in the stream but cannot be delivered: its seal lapsed,
 * it is older than the window, or it was sealed without its offset (by a
 * release before seals bound it). A socket that had not passed it missed an
 * event: it is told to resync, never left with a silent gap.
 */
export interface LapsedEntry {
  offset: string;
  lapsed: true;
}

/** What a read of the stream yields at an offset that opened: an entry to deliver, or one that lapsed. */
export type StreamRead = StreamEntry | LapsedEntry;

export function isLapsed(entry: StreamRead): entry is LapsedEntry {
  return 'lapsed' in entry;
}
