import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Principal, TenantAccessService } from '@platform/auth';
import { pageRequestOf, pageStatus } from '@platform/http-common';
import type { FastifyReply } from 'fastify';
import { ContactSessionsParams, ContactSessionsQuery, ContactSessionsResponse } from './contact-session.dto';
import { ListContactSessionsService } from './list-contact-sessions.service';
import { sessionVisibilityOf } from './session-visibility';

@ApiTags('Contacts')
@Controller('v1/tenants/:tenantID/contacts/:contactID/sessions')
export class ContactSessionsController {
  constructor(
    private readonly access: TenantAccessService,
    private readonly listSessions: ListContactSessionsService,
  ) {}

  /** Operation 11 of SPEC.md. */
  @Get()
  @Auth('operator', 'plugin', 'pluginConnection')
  @ApiOperation({
    summary: 'List contact sessions',
    description:
      'A contact\'s sessions, most recently active first (last message time, then sessionID, descending). An operator sees ' +
      'listed sessions and those assigned to them or that they took part in; an installed plugin and the tenant\'s plugin ' +
      'connection see all. An unknown contact is an empty page.',
  })
  @ApiResponse({ status: 200, type: ContactSessionsResponse, description: 'The last page' })
  @ApiResponse({ status: 206, type: ContactSessionsResponse, description: 'More pages follow' })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Param() params: ContactSessionsParams,
    @Query() query: ContactSessionsQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ContactSessionsResponse> {
    await this.access.require(principal, params.tenantID);
    const response = await this.listSessions.list(
      params.tenantID.toLowerCase(),
      params.contactID.toLowerCase(),
      sessionVisibilityOf(principal),
      pageRequestOf(query),
    );
    reply.status(pageStatus(response.meta));
    return response;
  }
}
