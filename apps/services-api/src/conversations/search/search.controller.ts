import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiPartialContentResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Principal } from '@platform/auth';
import { ApiErrors } from '@platform/http-common';
import type { FastifyReply } from 'fastify';
import { SearchConversationsUseCase } from './search-conversations.use-case';
import { ContactSearchResponse, DEFAULT_SEARCH_RESULTS_PER_PAGE, MessageSearchResponse, SearchParams, SearchQueryParams } from './search.dto';

const WHO =
  'An operator finds what is in the sessions they may see (listed, assigned to them, or joined: operation 11\'s rule); a plugin connection, what is in ' +
  'the sessions of its own inboxes; an installed plugin, everything of the tenant.';
const PAGES = 'Newest first, by keyset: pass meta.nextCursor as `cursor`, with the same q, for the next (older) page. 206 while another page follows.';

/**
 * Search of a tenant's messages and contacts (docs/search.md). Two routes,
 * not one with a `kind`: each answers its own shape and has its own query
 * rules, so each has its own schema in the OpenAPI document and typed client.
 */
@ApiTags('Search')
@Controller('v1/tenants/:tenantID/search')
export class SearchController {
  constructor(private readonly search: SearchConversationsUseCase) {}

  @Get('messages')
  @Auth('operator', 'plugin', 'pluginConnection')
  @ApiOperation({
    operationId: 'searchMessages',
    summary: "Search the tenant's messages",
    description:
      `Text messages holding every word of q (lower-cased, whole words; "a phrase", \`or\`, \`-word\`). ${WHO} A message is found only when its ` +
      `session may be seen. ${PAGES}`,
  })
  @ApiErrors('TenantNotFound')
  @ApiOkResponse({ type: MessageSearchResponse, description: 'The last page' })
  @ApiPartialContentResponse({ type: MessageSearchResponse, description: 'Another page follows' })
  async messages(
    @CurrentPrincipal() principal: Principal,
    @Param() params: SearchParams,
    @Query() query: SearchQueryParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<MessageSearchResponse> {
    const page = await this.search.messages(commandOf(principal, params, query));
    void reply.status(page.meta.nextCursor === null ? 200 : 206);
    return page;
  }

  @Get('contacts')
  @Auth('operator', 'plugin', 'pluginConnection')
  @ApiOperation({
    operationId: 'searchContacts',
    summary: "Search the tenant's contacts",
    description:
      `Contacts whose name or one of whose handles contains q, case-insensitively. ${WHO} A contact is found only when one of its sessions ` +
      `may be seen. ${PAGES}`,
  })
  @ApiErrors('TenantNotFound')
  @ApiOkResponse({ type: ContactSearchResponse, description: 'The last page' })
  @ApiPartialContentResponse({ type: ContactSearchResponse, description: 'Another page follows' })
  async contacts(
    @CurrentPrincipal() principal: Principal,
    @Param() params: SearchParams,
    @Query() query: SearchQueryParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ContactSearchResponse> {
    const page = await this.search.contacts(commandOf(principal, params, query));
    void reply.status(page.meta.nextCursor === null ? 200 : 206);
    return page;
  }
}

function commandOf(principal: Principal, params: SearchParams, query: SearchQueryParams) {
  return {
    principal,
    tenantID: params.tenantID,
    q: query.q,
    limit: query.limit === undefined ? DEFAULT_SEARCH_RESULTS_PER_PAGE : Number(query.limit),
    cursor: query.cursor,
  };
}
