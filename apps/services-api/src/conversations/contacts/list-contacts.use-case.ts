import { Injectable } from '@nestjs/common';
import { TenantAccessService } from '@platform/auth';
import { KeysetCursors } from '@platform/http-common';
import type { ConversationPrincipal } from '../sessions/session-access';
import { CONTACT_PAGES } from './contact-cursor';
import type { ContactsResponse } from './contact.dto';
import { ContactsRepository, ContactViewer } from './contacts.repository';

export interface ListContactsCommand {
  principal: ConversationPrincipal;
  tenantID: string;
  /** Exact match on a handle, any channel. */
  handle?: string;
  limit: number;
  /** The previous page's `meta.nextCursor`; one this API did not make is 400 1002, before any access check. */
  cursor?: string;
}

/**
 * A tenant's contacts, newest first, by keyset (docs/conversations.md#contacts):
 * every contact for an operator; for a plugin connection, those it has a
 * session with on its own inboxes (so a connection learns no contact of
 * another's). One contact more than the page tells whether another follows.
 */
@Injectable()
export class ListContactsUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly contacts: ContactsRepository,
    private readonly cursors: KeysetCursors,
  ) {}

  async execute(command: ListContactsCommand): Promise<ContactsResponse> {
    const after = command.cursor === undefined ? undefined : this.cursors.read(CONTACT_PAGES, command.cursor);
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    const viewer: ContactViewer =
      command.principal.kind === 'pluginConnection' ? { kind: 'pluginConnection', pluginConnectionID: command.principal.pluginConnectionID } : { kind: 'operator' };
    const found = await this.contacts.page(scope, viewer, command.handle, after, command.limit + 1);
    const page = found.slice(0, command.limit);
    const nextCursor = found.length > command.limit ? this.cursors.issue(CONTACT_PAGES, page[page.length - 1].position) : null;
    return { data: page.map((listed) => listed.contact), meta: { limit: command.limit, nextCursor } };
  }
}
