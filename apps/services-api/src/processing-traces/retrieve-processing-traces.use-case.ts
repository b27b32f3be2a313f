import { Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService, TenantScope } from '@platform/auth';
import { AppException } from '@platform/errors';
import { composeRetrieval, distinctTraces, isTerminal, outcomeOf, RequestedTrace, TraceOutcome, traceKey } from './compose-retrieval';
import { RetrievalResponse } from './processing-traces.dto';
import { ProcessingTracesRepository } from './processing-traces.repository';
import { InstalledTraceProvider, TraceProvider } from './trace-provider/trace.provider';
import { RetrievalCache } from './retrieval-cache';
import { TraceFanOut } from './trace-fan-out';

export interface RetrieveProcessingTracesCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  /** Canonical (lower-cased by the request rule, IsCanonicalUuid). */
  sessionID: string;
  traces: RequestedTrace[];
}

/**
 * Operation 10: the steps of the requested traces, read from their sources
 * in parallel (one call per source for all its traces), merged and
 * annotated; terminal results come from and go to the cache.
 */
@Injectable()
export class RetrieveProcessingTracesUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly repository: ProcessingTracesRepository,
    private readonly fanOut: TraceFanOut,
    private readonly providerClient: TraceProvider,
    private readonly cache: RetrievalCache,
  ) {}

  async execute(command: RetrieveProcessingTracesCommand): Promise<RetrievalResponse> {
    const scope = await this.access.require(command.principal, command.tenantID);
    const { sessionID } = command;
    const requested = distinctTraces(command.traces);
    const cacheKey = RetrievalCache.keyOf(scope.tenantID, sessionID, requested);
    const [exists, installed, cached] = await Promise.all([
      this.repository.sessionExists(scope, sessionID),
      this.repository.providersOf(scope),
      this.cache.get(cacheKey),
    ]);
    if (!exists) throw new AppException('SessionNotFound');
    const providers = new Map(installed.map((provider) => [provider.urn, provider]));
    if (cached) return composeRetrieval(requested, cached, providers);

    const outcomes = await this.read(scope, sessionID, requested, providers);
    const all = requested.map((trace) => (providers.has(trace.source) ? outcomes.get(traceKey(trace))! : ({ status: 'not_found' } as const)));
    if (isTerminal(all)) await this.cache.put(cacheKey, outcomes);
    return composeRetrieval(requested, outcomes, providers);
  }

  /** One read call per installed source named, all at once; each requested trace gets an outcome. */
  private async read(
    scope: TenantScope,
    sessionID: string,
    requested: RequestedTrace[],
    providers: ReadonlyMap<string, InstalledTraceProvider>,
  ): Promise<Map<string, TraceOutcome>> {
    const refsBySource = new Map<string, string[]>();
    for (const trace of requested) {
      if (!providers.has(trace.source)) continue;
      refsBySource.set(trace.source, [...(refsBySource.get(trace.source) ?? []), trace.traceRef]);
    }
    const involved = [...refsBySource.keys()].map((source) => providers.get(source)!);
    const results = await this.fanOut.run(scope.tenantID, sessionID, involved, (provider, call) =>
      this.providerClient.read(provider, call, refsBySource.get(provider.urn)!),
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
