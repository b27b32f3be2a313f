import { Body, Controller, Get, Param, Put, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiPartialContentResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, OperatorPrincipal } from '@platform/auth';
import { ApiErrors, TenantParams } from '@platform/http-common';
import type { FastifyReply } from 'fastify';
import { GetMyPresenceUseCase } from './get-my-presence.use-case';
import { ListPresenceUseCase } from './list-presence.use-case';
import { DEFAULT_PRESENCE_PER_PAGE, MyPresenceResponse, PresenceListResponse, PresenceQuery, SetPresenceBody } from './presence.dto';
import { SetMyPresenceUseCase } from './set-my-presence.use-case';

/** Operator presence (docs/presence.md). */
@ApiTags('Presence')
@Controller('v1/tenants/:tenantID/presence')
export class PresenceController {
  constructor(
    private readonly setMine: SetMyPresenceUseCase,
    private readonly getMine: GetMyPresenceUseCase,
    private readonly list: ListPresenceUseCase,
  ) {}

  @Put('me')
  @Auth('operator')
  @ApiOperation({
    operationId: 'setMyPresence',
    summary: 'Choose my presence status',
    description:
      'Records the status the requesting operator chooses in the tenant; the status in effect follows from it and their sockets: offline when ' +
      'they chose offline or no socket of theirs was seen within PRESENCE_OFFLINE_GRACE_SECONDS, away when they chose online and were idle past ' +
      'PRESENCE_AWAY_AFTER_SECONDS, else the chosen status. A change of the status in effect emits operator.presenceChanged.',
  })
  @ApiErrors('TenantNotFound')
  @ApiOkResponse({ type: MyPresenceResponse })
  async choose(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: TenantParams, @Body() body: SetPresenceBody): Promise<MyPresenceResponse> {
    return { data: await this.setMine.execute({ principal, tenantID: params.tenantID, status: body.status }) };
  }

  @Get('me')
  @Auth('operator')
  @ApiOperation({
    operationId: 'getMyPresence',
    summary: 'Read my presence',
    description: 'The status the requesting operator chose in the tenant and the status in effect. Never recorded: offline, chosen online, changedAt null.',
  })
  @ApiErrors('TenantNotFound')
  @ApiOkResponse({ type: MyPresenceResponse })
  async mine(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: TenantParams): Promise<MyPresenceResponse> {
    return { data: await this.getMine.execute({ principal, tenantID: params.tenantID }) };
  }

  @Get()
  @Auth('operator')
  @ApiOperation({
    operationId: 'listPresence',
    summary: "List the members' presence",
    description:
      "Every member of the tenant with their status in effect and when it last changed, by operatorID, by keyset: pass meta.nextCursor as `cursor` " +
      'for the next page. A member never recorded is offline with changedAt null. 206 while another page follows.',
  })
  @ApiErrors('TenantNotFound')
  @ApiOkResponse({ type: PresenceListResponse, description: 'The last page' })
  @ApiPartialContentResponse({ type: PresenceListResponse, description: 'Another page follows' })
  async members(
    @CurrentPrincipal() principal: OperatorPrincipal,
    @Param() params: TenantParams,
    @Query() query: PresenceQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PresenceListResponse> {
    const page = await this.list.execute({
      principal,
      tenantID: params.tenantID,
      limit: query.limit === undefined ? DEFAULT_PRESENCE_PER_PAGE : Number(query.limit),
      cursor: query.cursor,
    });
    void reply.status(page.meta.nextCursor === null ? 200 : 206);
    return page;
  }
}
