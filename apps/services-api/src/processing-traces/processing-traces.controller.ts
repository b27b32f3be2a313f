import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, OperatorPrincipal } from '@platform/auth';
import { DiscoverProcessingTracesUseCase } from './discover-processing-traces.use-case';
import { DiscoveryResponse, ProcessingTracesParams, RetrievalBody, RetrievalResponse } from './processing-traces.dto';
import { RetrieveProcessingTracesUseCase } from './retrieve-processing-traces.use-case';
import { ApiErrors } from '@platform/http-common';

@ApiTags('Sessions')
@Controller('v1/tenants/:tenantID/sessions/:sessionID/processing-traces')
export class ProcessingTracesController {
  constructor(
    private readonly discovery: DiscoverProcessingTracesUseCase,
    private readonly retrieval: RetrieveProcessingTracesUseCase,
  ) {}

  /** Operation 9 (docs/processing-traces.md). */
  @Get()
  @Auth('operator')
  @ApiOperation({
    operationId: 'discoverProcessingTraces',
    summary: 'Discover processing traces',
    description:
      'The messages of the session that have processing traces, condensed across every trace provider installed on the ' +
      'tenant (called in parallel, each within TRACE_PROVIDER_TIMEOUT_MS). Every provider appears in `sources`; one that ' +
      'fails, times out or answers garbage is reported there and never fails the request (docs/processing-traces.md). ' +
      'An unknown tenant is 403 1004, like one the operator is not a member of.',
  })
  @ApiErrors('SessionNotFound')
  @ApiOkResponse({ type: DiscoveryResponse })
  async discover(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: ProcessingTracesParams): Promise<DiscoveryResponse> {
    return this.discovery.execute({ principal, tenantID: params.tenantID, sessionID: params.sessionID });
  }

  /** Operation 10 (docs/processing-traces.md). */
  @Post('retrieval')
  @HttpCode(200)
  @Auth('operator')
  @ApiOperation({
    operationId: 'retrieveProcessingTraces',
    summary: 'Retrieve processing traces',
    description:
      'The steps of the given traces (1-10, as listed by operation 9), read from their providers in parallel, merged in ' +
      'start order and annotated with their plugin. `status` and `processStatus` follow docs/processing-traces.md. ' +
      'No side effect but a cache: finished (terminal) retrievals are served from Redis.',
  })
  @ApiErrors('SessionNotFound')
  @ApiBody({ type: RetrievalBody })
  @ApiOkResponse({ type: RetrievalResponse })
  async retrieve(
    @CurrentPrincipal() principal: OperatorPrincipal,
    @Param() params: ProcessingTracesParams,
    @Body() body: RetrievalBody,
  ): Promise<RetrievalResponse> {
    return this.retrieval.execute({ principal, tenantID: params.tenantID, sessionID: params.sessionID, traces: body.traces });
  }
}
