/**
 * The statuses of operator_presence, chosen and in effect alike (its CHECK
 * constraints; docs/presence.md): here, beside the schema, for the routes
 * and the event payload that name them.
 */
export const PRESENCE_STATUSES = ['online', 'busy', 'away', 'offline'] as const;

export type PresenceStatus = (typeof PRESENCE_STATUSES)[number];
