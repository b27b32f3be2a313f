import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Principal } from '@platform/auth';
import { pageRequestOf, pageStatus } from '@platform/http-common';
import type { FastifyReply } from 'fastify';
import { ContactSessionsParams, ContactSessionsQuery, ContactSessionsResponse } from './contact-session.dto';
import { ListContactSessionsUseCase } from './list-contact-sessions.use-case';

@ApiTags('Contacts')
@Controller('v1/tenants/:tenantID/contacts/:contactID/sessions')
export class ContactSessionsController {
  constructor(private readonly listSessions: ListContactSessionsUseCase) {}

  /** Operation 11 (docs/sessions-and-shortcuts.md). */
  @Get()
  @Auth('operator', 'plugin', 'pluginConnection')
  @ApiOperation({
    operationId: 'listContactSessions',
    summary: 'List contact sessions',
    description:
      'A contact\'s sessions, most recently active first (last message time, then sessionID, descending). An operator sees ' +
      'listed sessions and those assigned to them or that they took part in; a plugin connection sees those of its own ' +
      'inboxes; an installed plugin sees all. An unknown contact is an empty page.',
  })
  @ApiResponse({ status: 200, type: ContactSessionsResponse, description: 'The last page' })
  @ApiResponse({ status: 206, type: ContactSessionsResponse, description: 'More pages follow' })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Param() params: ContactSessionsParams,
    @Query() query: ContactSessionsQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ContactSessionsResponse> {
    const response = await this.listSessions.execute({ principal, tenantID: params.tenantID, contactID: params.contactID, page: pageRequestOf(query) });
    reply.status(pageStatus(response.meta));
    return response;
  }
}
