import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, OperatorPrincipal } from '@platform/auth';
import { ApiErrors } from '@platform/http-common';
import { InboxParams } from '../inboxes/inbox.dto';
import { GetRoutingPolicyUseCase } from './get-routing-policy.use-case';
import { DEFAULT_CAPACITY, RoutingPolicy } from './routing-policy';
import { RoutingPolicyBody, RoutingPolicyDto, RoutingPolicyResponse } from './routing.dto';
import { SetRoutingPolicyUseCase } from './set-routing-policy.use-case';

function dtoOf(policy: RoutingPolicy): RoutingPolicyDto {
  return { ...policy };
}

/** An inbox's routing policy: how its queued sessions are assigned (docs/conversations.md#routing). */
@ApiTags('Conversations')
@Controller('v1/tenants/:tenantID/inboxes/:inboxID/routing')
export class RoutingController {
  constructor(
    private readonly getPolicy: GetRoutingPolicyUseCase,
    private readonly setPolicy: SetRoutingPolicyUseCase,
  ) {}

  @Get()
  @Auth('operator')
  @ApiOperation({
    operationId: 'readInboxRouting',
    summary: "Read an inbox's routing policy",
    description: 'Any operator of the tenant. An inbox whose policy was never set is `manual`. A removed or unknown inbox: 404 1940.',
  })
  @ApiErrors('TenantNotFound', 'InboxNotFound')
  @ApiOkResponse({ type: RoutingPolicyResponse })
  async read(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: InboxParams): Promise<RoutingPolicyResponse> {
    return { data: dtoOf(await this.getPolicy.execute({ principal, tenantID: params.tenantID, inboxID: params.inboxID })) };
  }

  @Put()
  @Auth('operator')
  @ApiOperation({
    operationId: 'setInboxRouting',
    summary: "Set an inbox's routing policy",
    description:
      'Only owners of the tenant (a member gets 403 1004). Replaces the policy: a field left out takes its default. ' +
      'Every operator named must be a member of this tenant (else 404 1990). Audited as inbox.routingChanged; queued sessions are assigned at once under a routed policy.',
  })
  @ApiErrors('TenantNotFound', 'InboxNotFound', 'MemberNotFound')
  @ApiOkResponse({ type: RoutingPolicyResponse })
  async set(@CurrentPrincipal() principal: OperatorPrincipal, @Param() params: InboxParams, @Body() body: RoutingPolicyBody): Promise<RoutingPolicyResponse> {
    const policy: RoutingPolicy = {
      inboxID: params.inboxID,
      policy: body.policy,
      capacity: body.capacity === undefined ? DEFAULT_CAPACITY : Number(body.capacity),
      operatorIDs: body.operatorIDs ?? [],
      requeueOfflineAfterSeconds: body.requeueOfflineAfterSeconds === undefined || body.requeueOfflineAfterSeconds === null ? null : Number(body.requeueOfflineAfterSeconds),
    };
    return { data: dtoOf(await this.setPolicy.execute({ principal, tenantID: params.tenantID, policy })) };
  }
}
