import type { ServicesApi } from '@platform/api-client';

type Schemas = ServicesApi.components['schemas'];
export type ConversationSession = Schemas['ConversationSessionDto'];
export type ConversationMessage = Schemas['ConversationMessageDto'];
export type Inbox = Schemas['InboxDto'];
export type InboxSessionCounts = Schemas['InboxSessionCountsDto'];
export type TenantMember = Schemas['TenantMember'];
export type FoundContact = Schemas['FoundContactDto'];
export type MyPresence = Schemas['MyPresenceDto'];
export type PresenceStatus = MyPresence['chosenStatus'];
export const PRESENCE_STATUSES: readonly PresenceStatus[] = ['online', 'busy', 'away', 'offline'];
/** Operation 14: unread counts by category (an inboxID, `mention`, `assignment`, `system`). */
export type NotificationCounts = Record<string, number>;

/** The three queues of an inbox the console shows, with the filters of GET .../inboxes/{inboxID}/sessions. */
export const QUEUES = {
  queued: { label: 'Queued', query: { state: 'queued' } },
  mine: { label: 'Mine', query: { state: 'open', assignee: 'mine' } },
  unassigned: { label: 'Unassigned', query: { state: 'open', assignee: 'unassigned' } },
} as const;
export type QueueName = keyof typeof QUEUES;
