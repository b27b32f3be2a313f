import { Injectable } from '@nestjs/common';
import { AppException } from '@platform/errors';
import { composeRetrieval, distinctTraces, isTerminal, outcomeOf, RequestedTrace, TraceOutcome, traceKey } from './compose-retrieval';
import { RetrievalResponse } from './processing-traces.dto';
import { ProcessingTracesRepository } from './processing-traces.repository';
import { TraceProvider } from './provider/trace-provider.client';
import { RetrievalCache } from './retrieval-cache';
import { TraceFanOut } from './trace-fan-out';

/**
 * Operation 10: the steps of the requested traces, read from their sources
 * in parallel (one call per source for all its traces), merged and
 * annotated; terminal results come from and go to the cache.
 */
@Injectable()
export class RetrieveProcessingTraces {
  constructor(
    private readonly repository: ProcessingTracesRepository,
    private readonly fanOut: TraceFanOut,
    private readonly cache: RetrievalCache,
  ) {}

  async retrieve(tenantID: string, sessionID: string, traces: RequestedTrace[]): Promise<RetrievalResponse> {
    const requested = distinctTraces(traces);
    const cacheKey = RetrievalCache.keyOf(tenantID, sessionID, requested);
    const [exists, installed, cached] = await Promise.all([
      this.repository.sessionExists(tenantID, sessionID),
      this.repository.providersOf(tenantID),
      this.cache.get(cacheKey),
    ]);
    if (!exists) throw new AppException('SessionNotFound');
    const providers = new Map(installed.map((provider) => [provider.urn, provider]));
    if (cached) return composeRetrieval(requested, cached, providers);

    const outcomes = await this.read(tenantID, sessionID, requested, providers);
    const all = requested.map((trace) => (providers.has(trace.source) ? outcomes.get(traceKey(trace))! : ({ status: 'not_found' } as const)));
    if (isTerminal(all)) await this.cache.put(cacheKey, outcomes);
    return composeRetrieval(requested, outcomes, providers);
  }

  /** One read call per installed source named, all at once; each requested trace gets an outcome. */
  private async read(
    tenantID: string,
    sessionID: string,
    requested: RequestedTrace[],
    providers: ReadonlyMap<string, TraceProvider>,
  ): Promise<Map<string, TraceOutcome>> {
    const refsBySource = new Map<string, string[]>();
    for (const trace of requested) {
      if (!providers.has(trace.source)) continue;
      refsBySource.set(trace.source, [...(refsBySource.get(trace.source) ?? []), trace.traceRef]);
    }
    const involved = [...refsBySource.keys()].map((source) => providers.get(source)!);
    const results = await this.fanOut.run(tenantID, sessionID, involved, (provider, call) =>
      this.fanOut.client.read(provider, call, refsBySource.get(provider.urn)!),
    );

    const outcomes = new Map<string, TraceOutcome>();
    for (const result of results) {
      const refs = refsBySource.get(result.provider.urn)!;
      for (const traceRef of refs) {
        const key = traceKey({ source: result.provider.urn, traceRef });
        if (!result.ok) outcomes.set(key, { status: result.failure });
        else outcomes.set(key, outcomeOf(result.value.find((trace) => trace.traceRef === traceRef)));
      }
    }
    return outcomes;
  }
}
