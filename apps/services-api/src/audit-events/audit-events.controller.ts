import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiPartialContentResponse, ApiTags } from '@nestjs/swagger';
import type { AuditAction } from '@platform/audit';
import { Auth, CurrentPrincipal, Principal } from '@platform/auth';
import { ApiErrors, pageRequestOf, pageStatus, TenantParams } from '@platform/http-common';
import type { FastifyReply } from 'fastify';
import { AuditEventListResponse, ListAuditEventsQuery } from './audit-event.dto';
import { ListAuditEventsUseCase } from './list-audit-events.use-case';

@ApiTags('Audit')
@Controller('v1/tenants/:tenantID/audit-events')
export class AuditEventsController {
  constructor(private readonly listEvents: ListAuditEventsUseCase) {}

  /** Every profile is accepted so that plugins and connections get 403 1004 from the owner check, not 401. */
  @Get()
  @Auth('operator', 'plugin', 'pluginConnection')
  @ApiOperation({
    operationId: 'listAuditEvents',
    summary: "List the tenant's audit events",
    description:
      'Administrative actions on the tenant (plugin connections, invitations, helpdesk domains, campaign models), newest first, ' +
      'for the tenant\'s owners. Filter by action, actor and time range; 206 while more pages exist.',
  })
  @ApiErrors('TenantNotFound')
  @ApiOkResponse({ type: AuditEventListResponse })
  @ApiPartialContentResponse({ type: AuditEventListResponse, description: 'More pages exist' })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Param() params: TenantParams,
    @Query() query: ListAuditEventsQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuditEventListResponse> {
    const page = await this.listEvents.execute({
      principal,
      tenantID: params.tenantID,
      page: pageRequestOf(query),
      action: query.action as AuditAction | undefined,
      actorID: query.actorID,
      from: query.from,
      to: query.to,
    });
    void reply.status(pageStatus(page.meta));
    return page;
  }
}
