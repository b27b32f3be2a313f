import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ApiExcludeController } from '@nestjs/swagger';
import { trustedTenantScope } from '@platform/auth';
import { IssueTraceTokens, IssueTraceTokensPayload, IssueTraceTokensReply } from '@platform/contracts';
import { IssueTraceTokensUseCase } from './issue-trace-tokens.use-case';

/** Trace-provider credentials for services-api over the transport: it has checked the caller's access to the tenant. */
// Transport handlers, no HTTP route: their payloads are no part of the OpenAPI document.
@ApiExcludeController()
@Controller()
export class TraceTokensRpcController {
  constructor(private readonly issueTraceTokens: IssueTraceTokensUseCase) {}

  @MessagePattern(IssueTraceTokens.pattern)
  async issue(@Payload() payload: IssueTraceTokensPayload): Promise<IssueTraceTokensReply> {
    const tokens = await this.issueTraceTokens.execute({
      scope: trustedTenantScope(payload.tenantID),
      sessionID: payload.sessionID,
      pluginIDs: payload.pluginIDs,
    });
    return { tokens };
  }
}
