import type { WebhookEventType } from './webhook-event-types';

/**
 * The outbox events that flow to sockets (docs/realtime.md, Events): the
 * conversation events and operators' presence. Everything else in the outbox (members, plugins,
 * domains) is for webhooks only and is never streamed. Here, beside the
 * catalog, because two sides read it: the real-time gateway's relay streams
 * these types, and an emit of one nudges the relay once its transaction
 * committed (OutboxNudges).
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
  'operator.presenceChanged',
] as const satisfies readonly WebhookEventType[];

export type RealtimeEventType = (typeof REALTIME_EVENT_TYPES)[number];

const STREAMED = new Set<string>(REALTIME_EVENT_TYPES);

export function isRealtimeEventType(type: string): type is RealtimeEventType {
  return STREAMED.has(type);
}
