import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { DiscoverProcessingTraces } from './discover-processing-traces.use-case';
import { DiscoveryResponse, ProcessingTracesParams, RetrievalBody, RetrievalResponse } from './processing-traces.dto';
import { RetrieveProcessingTraces } from './retrieve-processing-traces.use-case';
import { ApiErrors } from '@platform/http-common';

@ApiTags('Sessions')
@Controller('v1/tenants/:tenantID/sessions/:sessionID/processing-traces')
export class ProcessingTracesController {
  constructor(
    private readonly access: TenantAccessService,
    private readonly discovery: DiscoverProcessingTraces,
    private readonly retrieval: RetrieveProcessingTraces,
  ) {}

  /** Operation 9 of SPEC.md. */
  @Get()
  @Auth('operator')
  @ApiOperation({
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
    await this.access.require(principal, params.tenantID);
    return this.discovery.discover(params.tenantID.toLowerCase(), params.sessionID.toLowerCase());
  }

  /** Operation 10 of SPEC.md. */
  @Post('retrieval')
  @HttpCode(200)
  @Auth('operator')
  @ApiOperation({
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
    await this.access.require(principal, params.tenantID);
    return this.retrieval.retrieve(params.tenantID.toLowerCase(), params.sessionID.toLowerCase(), body.traces);
  }
}
