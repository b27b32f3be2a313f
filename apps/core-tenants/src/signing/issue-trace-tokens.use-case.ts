import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import type { IssuedTraceToken } from '@platform/contracts';
import { canonicalUuid } from '@platform/http-common';
import { TokenSubjectsRepository } from './token-subjects.repository';
import { TraceTokenSigner } from './trace-token.signer';

export interface IssueTraceTokensCommand {
  scope: TenantScope;
  sessionID: string;
  pluginIDs: string[];
}

/**
 * Trace-provider credentials for services-api (operations 9 and 10). Only
 * plugins with a trace endpoint and a live connection on the tenant get one:
 * a plugin uninstalled a moment ago is left out, and services-api reports it
 * as a failed source.
 */
@Injectable()
export class IssueTraceTokensUseCase {
  constructor(
    private readonly subjects: TokenSubjectsRepository,
    private readonly signer: TraceTokenSigner,
  ) {}

  async execute(command: IssueTraceTokensCommand): Promise<IssuedTraceToken[]> {
    const { tenantID } = command.scope;
    const sessionID = canonicalUuid(command.sessionID);
    const plugins = await this.subjects.liveTraceProviders(
      command.scope,
      command.pluginIDs.map(canonicalUuid),
    );
    return Promise.all(
      plugins.map(async (plugin) => ({
        pluginID: plugin.id,
        ...(await this.signer.issue({ tenantID, sessionID, pluginID: plugin.id, pluginURN: plugin.urn })),
      })),
    );
  }
}
