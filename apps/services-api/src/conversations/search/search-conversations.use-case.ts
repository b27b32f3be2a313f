import { Inject, Injectable } from '@nestjs/common';
import { Principal, TenantAccessService } from '@platform/auth';
import { KeysetCursors, KeysetList } from '@platform/http-common';
import { sessionVisibilityOf } from '../sessions/session-visibility';
import { CONVERSATION_SEARCH, ConversationSearch, Found, SearchQuery } from './conversation-search';
import { CONTACT_SEARCH_PAGES, MESSAGE_SEARCH_PAGES } from './search-cursors';
import type { ContactSearchResponse, MessageSearchResponse } from './search.dto';

export interface SearchCommand {
  principal: Principal;
  tenantID: string;
  /** As sent (checked by the request rule: 1-200 characters, not only spaces). */
  q: string;
  limit: number;
  /** The previous page's `meta.nextCursor`; one this API did not make for this kind of result is 400 1002, before any access check. */
  cursor?: string;
}

/**
 * A page of a tenant's messages or contacts matching a text, newest first,
 * by keyset (docs/search.md), found by the one `ConversationSearch` and
 * limited to what the caller may see. One result more than the page is
 * asked for, to know whether another page follows.
 */
@Injectable()
export class SearchConversationsUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly cursors: KeysetCursors,
    @Inject(CONVERSATION_SEARCH) private readonly search: ConversationSearch,
  ) {}

  async messages(command: SearchCommand): Promise<MessageSearchResponse> {
    return this.page(command, MESSAGE_SEARCH_PAGES, (query) => this.search.messages(query));
  }

  async contacts(command: SearchCommand): Promise<ContactSearchResponse> {
    return this.page(command, CONTACT_SEARCH_PAGES, (query) => this.search.contacts(query));
  }

  private async page<Result, Position>(
    command: SearchCommand,
    list: KeysetList<Position>,
    find: (query: SearchQuery<Position>) => Promise<Found<Result, Position>[]>,
  ): Promise<{ data: Result[]; meta: { limit: number; nextCursor: string | null } }> {
    const after = command.cursor === undefined ? undefined : this.cursors.read(list, command.cursor);
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    const found = await find({ scope, visibility: sessionVisibilityOf(command.principal), text: command.q.trim(), after, limit: command.limit + 1 });
    const page = found.slice(0, command.limit);
    const nextCursor = found.length > command.limit ? this.cursors.issue(list, page[page.length - 1].position) : null;
    return { data: page.map((hit) => hit.result), meta: { limit: command.limit, nextCursor } };
  }
}
