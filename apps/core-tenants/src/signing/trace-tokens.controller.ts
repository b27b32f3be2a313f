import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ApiExcludeController } from '@nestjs/swagger';
import { IssueTraceTokens, IssueTraceTokensPayload, IssueTraceTokensReply } from '@platform/contracts';
import { DataSource } from 'typeorm';
import { TraceTokenSigner } from './trace-token.signer';

/**
 * Issues trace-provider credentials for services-api over the transport
 * (operations 9 and 10). Only plugins with a trace endpoint and a live
 * connection on the tenant get one: a plugin uninstalled a moment ago is left
 * out of the reply, and services-api reports it as a failed source.
 */
// Transport handlers, no HTTP route: their payloads are no part of the OpenAPI document.
@ApiExcludeController()
@Controller()
export class TraceTokensController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly signer: TraceTokenSigner,
  ) {}

  @MessagePattern(IssueTraceTokens.pattern)
  async issue(@Payload() payload: IssueTraceTokensPayload): Promise<IssueTraceTokensReply> {
    const tenantID = payload.tenantID.toLowerCase();
    const sessionID = payload.sessionID.toLowerCase();
    const plugins: { id: string; urn: string }[] = await this.dataSource.query(
      `SELECT p.id, p.urn
         FROM plugin_connections c
         JOIN plugins p ON p.id = c.plugin_id
        WHERE c.tenant_id = $1 AND c.status = 'live' AND c.plugin_id = ANY ($2::uuid[]) AND p.trace_endpoint_url IS NOT NULL`,
      [tenantID, payload.pluginIDs.map((id) => id.toLowerCase())],
    );
    const tokens = await Promise.all(
      plugins.map(async (plugin) => ({
        pluginID: plugin.id,
        ...(await this.signer.issue({ tenantID, sessionID, pluginID: plugin.id, pluginURN: plugin.urn })),
      })),
    );
    return { tokens };
  }
}
