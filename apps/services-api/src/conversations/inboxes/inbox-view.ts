import type { OperatorPrincipal, PluginConnectionPrincipal } from '@platform/auth';
import { AppException } from '@platform/errors';
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

/**
 * The live inbox a caller may read: any of the tenant's for its operators, a
 * plugin connection's own for it (the rule `GET .../inboxes` lists by).
 * Another connection's inbox is 404 1940, exactly like a missing one.
 */
export function refuseUnreadable(principal: OperatorPrincipal | PluginConnectionPrincipal, inbox: StoredInbox | undefined): StoredInbox {
  if (!inbox || (principal.kind === 'pluginConnection' && inbox.pluginConnectionID !== principal.pluginConnectionID)) throw new AppException('InboxNotFound');
  return inbox;
}
