import { Injectable } from '@nestjs/common';
import { IssueTraceTokens, IssueTraceTokensPayload, IssueTraceTokensReply } from '@platform/contracts';
import { TransportClient } from '@platform/transport';

/** Trace-provider credentials come from core-tenants, the only holder of the signing key. */
@Injectable()
export class TraceTokensClient {
  constructor(private readonly transport: TransportClient) {}

  /** At most MAX_TRACE_TOKEN_PLUGINS plugins a call; `timeoutMs` bounds the round trip. */
  issue(request: IssueTraceTokensPayload, timeoutMs: number): Promise<IssueTraceTokensReply> {
    return this.transport.send(IssueTraceTokens, request, timeoutMs);
  }
}
