import type { InboxDto } from './inbox.dto';
import type { StoredInbox } from './inboxes.repository';

export function inboxDtoOf(inbox: StoredInbox): InboxDto {
  return {
    inboxID: inbox.inboxID,
    name: inbox.name,
    channel: inbox.channel,
    pluginConnectionID: inbox.pluginConnectionID,
    createdAt: inbox.createdAt.toISOString(),
    updatedAt: inbox.updatedAt.toISOString(),
  };
}

/** Owners only manage inboxes (a member gets 403 1004; an unknown tenant 404 1062). */
export const INBOX_OWNERS_ONLY = { ownerOnly: true, tenantNotFoundIs404: true } as const;
