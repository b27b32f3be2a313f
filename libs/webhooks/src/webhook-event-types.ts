/**
 * The events a tenant's webhook endpoints can subscribe to. Adding an event
 * is adding a line here, its payload class (webhook-event-payloads.ts) and a
 * row in docs/webhooks.md. A name, once used, never changes meaning; a
 * payload change that is not additive raises the version.
 *
 * `ordered`: the events of one subject (the ordering key the emitter gives)
 * reach each endpoint in the order they occurred, because a receiver that
 * saw them swapped would keep the wrong state (a status, a role, an install
 * then its removal). The others may arrive in any order.
 */
export const WEBHOOK_EVENT_TYPES = {
  'campaignModel.statusChanged': { version: 1, ordered: true },
  'pluginConnection.installed': { version: 1, ordered: true },
  'pluginConnection.removed': { version: 1, ordered: true },
  'helpdeskDomain.added': { version: 1, ordered: true },
  'helpdeskDomain.statusChanged': { version: 1, ordered: true },
  'helpdeskDomain.removed': { version: 1, ordered: true },
  'invitation.accepted': { version: 1, ordered: true },
  'member.roleChanged': { version: 1, ordered: true },
  'member.removed': { version: 1, ordered: true },
  // Conversations (docs/conversations.md#events): subject `session:<sessionID>`; notifications.read and notifications.counts `operator:<operatorID>`.
  'message.created': { version: 1, ordered: true },
  'message.statusChanged': { version: 1, ordered: true },
  'session.opened': { version: 1, ordered: true },
  'session.assigned': { version: 1, ordered: true },
  'session.transferred': { version: 1, ordered: true },
  'session.participantJoined': { version: 1, ordered: true },
  'session.closed': { version: 1, ordered: true },
  'notifications.read': { version: 1, ordered: true },
  'notifications.counts': { version: 1, ordered: true },
  // Presence (docs/presence.md#events): subject `operator:<operatorID>`.
  'operator.presenceChanged': { version: 1, ordered: true },
  'webhook.test': { version: 1, ordered: false },
} as const satisfies Record<string, { version: number; ordered: boolean }>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENT_TYPES;

export const WEBHOOK_EVENT_TYPE_NAMES = Object.keys(WEBHOOK_EVENT_TYPES) as WebhookEventType[];

/** The types an endpoint may subscribe to: every type but the test event, which is sent only on request. */
export const SUBSCRIBABLE_WEBHOOK_EVENT_TYPES = WEBHOOK_EVENT_TYPE_NAMES.filter((type) => type !== 'webhook.test');
