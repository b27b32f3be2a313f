import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiPartialContentResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal } from '@platform/auth';
import { ApiErrors, TenantParams } from '@platform/http-common';
import type { FastifyReply } from 'fastify';
import type { ConversationPrincipal } from '../sessions/session-access';
import { ContactsQuery, ContactsResponse, DEFAULT_CONTACTS_PER_PAGE } from './contact.dto';
import { ListContactsUseCase } from './list-contacts.use-case';

/** A tenant's contacts (docs/conversations.md#contacts). */
@ApiTags('Contacts')
@Controller('v1/tenants/:tenantID/contacts')
export class ContactsController {
  constructor(private readonly listContacts: ListContactsUseCase) {}

  @Get()
  @Auth('operator', 'pluginConnection')
  @ApiOperation({
    operationId: 'listContacts',
    summary: 'List contacts',
    description:
      "Every contact of the tenant for its operators; for a plugin connection, those with a session on its own inboxes. Newest first, by keyset: pass " +
      'meta.nextCursor as `cursor` for the next (older) page. `handle` keeps the contacts with that exact handle on any channel. 206 while another page follows.',
  })
  @ApiErrors('TenantNotFound')
  @ApiOkResponse({ type: ContactsResponse, description: 'The last page' })
  @ApiPartialContentResponse({ type: ContactsResponse, description: 'Another page follows' })
  async list(
    @CurrentPrincipal() principal: ConversationPrincipal,
    @Param() params: TenantParams,
    @Query() query: ContactsQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ContactsResponse> {
    const page = await this.listContacts.execute({
      principal,
      tenantID: params.tenantID,
      handle: query.handle,
      limit: query.limit === undefined ? DEFAULT_CONTACTS_PER_PAGE : Number(query.limit),
      cursor: query.cursor,
    });
    void reply.status(page.meta.nextCursor === null ? 200 : 206);
    return page;
  }
}
