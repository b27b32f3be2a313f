/**
 * Operation 14's answer: an operator's unread notification counts in a
 * tenant, keyed by category (an inboxID for inbox notifications, else
 * `mention`, `assignment` or `system`); a category with nothing unread is
 * absent, so nothing unread is `{}`. The real-time `notifications.counts`
 * event carries the same object, so the two cannot drift apart.
 */
export type NotificationCounts = Record<string, number>;

/** The schema of {@link NotificationCounts}, shared by operation 14's document and the event's payload. */
export const NOTIFICATION_COUNTS_SCHEMA = { type: 'object', additionalProperties: { type: 'integer' } } as const;
