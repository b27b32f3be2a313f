import { Controller, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, OperatorPrincipal, operatorTokenExpiryOf } from '@platform/auth';
import { ApiErrors, NoStore, TenantParams } from '@platform/http-common';
import { IssueRealtimeTicketUseCase } from './issue-realtime-ticket.use-case';
import { RealtimeTicketResponse } from './realtime-ticket.dto';

@ApiTags('Real-time')
@Controller('v1/tenants/:tenantID/realtime-tickets')
export class RealtimeTicketsController {
  constructor(private readonly issue: IssueRealtimeTicketUseCase) {}

  @Post()
  @NoStore()
  @HttpCode(201)
  @Auth('operator')
  @ApiOperation({
    operationId: 'createRealtimeTicket',
    summary: 'Ask for a real-time connect ticket',
    description:
      'A short-lived, single-use ticket with which the operator opens a socket on the real-time gateway for this tenant ' +
      '(`/v1/realtime?ticket=...`), so the operator token never travels in a URL. Any member may ask. The socket closes ' +
      'when the token used here expires, or when the operator stops being a member.',
  })
  @ApiErrors('TenantNotFound')
  @ApiCreatedResponse({ type: RealtimeTicketResponse })
  async create(
    @CurrentPrincipal() principal: OperatorPrincipal,
    @Param() params: TenantParams,
    @Headers('authorization') authorization: string | undefined,
  ): Promise<RealtimeTicketResponse> {
    return { data: await this.issue.execute({ principal, tenantID: params.tenantID, credentialExpiresAtMs: operatorTokenExpiryOf(authorization) }) };
  }
}
