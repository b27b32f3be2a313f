import { Injectable } from '@nestjs/common';
import { AppException } from '@platform/errors';
import { condenseDiscovery, listedMessageIDs, ProviderListing } from './condense-discovery';
import { DiscoveryResponse } from './processing-traces.dto';
import { ProcessingTracesRepository } from './processing-traces.repository';
import { TraceFanOut } from './trace-fan-out';

/** Operation 9: every provider's traced messages of the session, condensed per message. */
@Injectable()
export class DiscoverProcessingTraces {
  constructor(
    private readonly repository: ProcessingTracesRepository,
    private readonly fanOut: TraceFanOut,
  ) {}

  async discover(tenantID: string, sessionID: string): Promise<DiscoveryResponse> {
    const [exists, providers] = await Promise.all([this.repository.sessionExists(tenantID, sessionID), this.repository.providersOf(tenantID)]);
    if (!exists) throw new AppException('SessionNotFound');
    if (providers.length === 0) return { messages: [], sources: [], version: 1 };

    const results = await this.fanOut.run(tenantID, sessionID, providers, (provider, call) => this.fanOut.client.list(provider, call));
    const listings: ProviderListing[] = results.map((result) =>
      result.ok ? { provider: result.provider, ok: true, list: result.value } : { provider: result.provider, ok: false, failure: result.failure },
    );
    const order = await this.repository.sessionMessagesAmong(tenantID, sessionID, listedMessageIDs(listings));
    return condenseDiscovery(listings, order);
  }
}
