/** Unread counts keyed by category: an inboxID for inbox notifications, else `mention`, `assignment` or `system`. */
export type NotificationCounts = Record<string, number>;
