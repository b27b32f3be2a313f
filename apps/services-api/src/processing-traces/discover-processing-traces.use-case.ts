import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import { AppException } from '@platform/errors';
import { condenseDiscovery, listedMessageIDs, ProviderListing } from './condense-discovery';
import { DiscoveryResponse } from './processing-traces.dto';
import { ProcessingTracesRepository } from './processing-traces.repository';
import { TraceProvider } from './trace-provider/trace.provider';
import { TraceFanOut } from './trace-fan-out';

export interface DiscoverProcessingTracesCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  /** Canonical (lower-cased by the request rule, IsCanonicalUuid). */
  sessionID: string;
}

/** Operation 9: every provider's traced messages of the session, condensed per message. */
@Injectable()
export class DiscoverProcessingTracesUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly repository: ProcessingTracesRepository,
    private readonly fanOut: TraceFanOut,
    private readonly providerClient: TraceProvider,
  ) {}

  async execute(command: DiscoverProcessingTracesCommand): Promise<DiscoveryResponse> {
    const scope = await this.access.require(command.principal, command.tenantID);
    const { sessionID } = command;
    const [exists, providers] = await Promise.all([this.repository.sessionExists(scope, sessionID), this.repository.providersOf(scope)]);
    if (!exists) throw new AppException('SessionNotFound');
    if (providers.length === 0) return { messages: [], sources: [], version: 1 };

    const results = await this.fanOut.run(scope.tenantID, sessionID, providers, (provider, call) => this.providerClient.list(provider, call));
    const listings: ProviderListing[] = results.map((result) =>
      result.ok ? { provider: result.provider, ok: true, list: result.value } : { provider: result.provider, ok: false, failure: result.failure },
    );
    const order = await this.repository.sessionMessagesAmong(scope, sessionID, listedMessageIDs(listings));
    return condenseDiscovery(listings, order);
  }
}
