import { OperatorPrincipal, TenantScope, trustedTenantScope } from '@platform/auth';
import { describe, expect, it } from 'vitest';
import { fake, FakeTenantAccess } from '@platform/testing';
import type { TraceOutcome } from './compose-retrieval';
import type { ProcessingTracesRepository } from './processing-traces.repository';
import { InstalledTraceProvider, TraceCall, TraceProvider, TraceProviderFailure } from './trace-provider/trace.provider';
import type { ReadTrace, SessionTraceList } from './trace-provider/trace-protocol';
import { RetrievalCache } from './retrieval-cache';
import { RetrieveProcessingTracesUseCase } from './retrieve-processing-traces.use-case';
import type { TraceCredentials } from './trace-credentials';
import { TraceFanOut } from './trace-fan-out';

const tenantID = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';
const sessionID = '3b241101-e2bb-4255-8caf-4136c566a962';
const principal: OperatorPrincipal = { kind: 'operator', operatorID: '9c8b7a6d-5e4f-4321-8abc-def012345678' };

const provider = (urn: string): InstalledTraceProvider => ({ pluginID: `plugin-${urn}`, urn, name: `Plugin ${urn}`, iconUrl: null, endpointUrl: `https://${urn}.test` });
const readTrace = (traceRef: string, processStatus: 'succeeded' | 'running', startedAt: string): ReadTrace => ({
  traceRef,
  status: 'ready',
  processStatus,
  startedAt,
  durationMs: 10,
  steps: [{ stepID: `${traceRef}-step`, title: 'Step', category: 'llm', status: 'succeeded', startedAt, durationMs: 10, details: [], metrics: [] }],
  details: [],
});

/** The trace provider port: what each provider reads, or the failure it meets. */
class FakeProviders extends TraceProvider {
  readonly traces = new Map<string, ReadTrace[] | TraceProviderFailure>();
  readonly reads: { urn: string; call: TraceCall; traceRefs: string[] }[] = [];

  list(): Promise<SessionTraceList> {
    throw new Error('not used');
  }

  async read(target: InstalledTraceProvider, call: TraceCall, traceRefs: string[]): Promise<ReadTrace[]> {
    this.reads.push({ urn: target.urn, call, traceRefs });
    const answer = this.traces.get(target.urn) ?? [];
    if (answer instanceof TraceProviderFailure) throw answer;
    return answer;
  }
}

/** The retrieval cache, in memory. */
class FakeCache {
  readonly entries = new Map<string, Map<string, TraceOutcome>>();

  asCache(): RetrievalCache {
    return fake<RetrievalCache>({
      get: async (key: string) => this.entries.get(key),
      put: async (key: string, outcomes: Map<string, TraceOutcome>) => void this.entries.set(key, outcomes),
    });
  }
}

function setUp(options: { sessionExists?: boolean; refuseAccess?: boolean } = {}) {
  const providers = new FakeProviders();
  const cache = new FakeCache();
  const scopes: TenantScope[] = [];
  const tenantAccess = new FakeTenantAccess();
  if (options.refuseAccess) tenantAccess.refusal = 'Forbidden';
  const access = tenantAccess.asAccess();
  const repository = fake<ProcessingTracesRepository>({
    sessionExists: async (scope: TenantScope) => (scopes.push(scope), options.sessionExists ?? true),
    providersOf: async (scope: TenantScope) => (scopes.push(scope), [provider('urn:a'), provider('urn:b')]),
  });
  const credentials = fake<TraceCredentials>({
    tokensFor: async (_tenant: string, _session: string, pluginIDs: string[]) => new Map(pluginIDs.map((pluginID) => [pluginID, `token-${pluginID}`])),
  });
  const fanOut = new TraceFanOut(credentials, { providerTimeoutMs: 1_000, retrievalCacheTtlSeconds: 60 });
  const useCase = new RetrieveProcessingTracesUseCase(access, repository, fanOut, providers, cache.asCache());
  const retrieve = (traces: { source: string; traceRef: string }[]) => useCase.execute({ principal, tenantID, sessionID, traces });
  return { providers, cache, scopes, retrieve };
}

describe('RetrieveProcessingTracesUseCase (operation 10)', () => {
  it('reads each source once for all its traces, merges the steps in start order and caches a finished retrieval', async () => {
    const { providers, cache, scopes, retrieve } = setUp();
    providers.traces.set('urn:a', [readTrace('a-1', 'succeeded', '2026-01-01T00:00:01.000Z'), readTrace('a-2', 'succeeded', '2026-01-01T00:00:03.000Z')]);
    providers.traces.set('urn:b', [readTrace('b-1', 'succeeded', '2026-01-01T00:00:02.000Z')]);
    const asked = [
      { source: 'urn:a', traceRef: 'a-1' },
      { source: 'urn:b', traceRef: 'b-1' },
      { source: 'urn:a', traceRef: 'a-2' },
      { source: 'urn:a', traceRef: 'a-1' },
    ];

    const retrieved = await retrieve(asked);

    expect(providers.reads.map(({ urn, traceRefs }) => [urn, traceRefs])).toEqual([
      ['urn:a', ['a-1', 'a-2']],
      ['urn:b', ['b-1']],
    ]);
    expect(retrieved.status).toBe('ready');
    expect(retrieved.steps.map((step) => step.stepID)).toEqual(['a-1-step', 'b-1-step', 'a-2-step']);
    expect(cache.entries.size).toBe(1);
    expect(new Set(scopes)).toEqual(new Set([trustedTenantScope(tenantID)]));

    // Asked again, in another order: served from the cache, no provider call.
    const again = await retrieve([...asked].reverse());
    expect(providers.reads).toHaveLength(2);
    expect(again.steps.map((step) => step.stepID)).toEqual(['a-1-step', 'b-1-step', 'a-2-step']);
  });

  it('does not cache while a trace still runs, and reports a failed source per trace', async () => {
    const { providers, cache, retrieve } = setUp();
    providers.traces.set('urn:a', [readTrace('a-1', 'running', '2026-01-01T00:00:01.000Z')]);
    providers.traces.set('urn:b', new TraceProviderFailure('unreachable', 'connection refused'));

    const retrieved = await retrieve([
      { source: 'urn:a', traceRef: 'a-1' },
      { source: 'urn:b', traceRef: 'b-1' },
    ]);

    expect(retrieved.sources.map((source) => source.status)).toEqual(['pending', 'unreachable']);
    expect(cache.entries.size).toBe(0);
  });

  it('answers a trace of a source not installed as not found, without calling anyone', async () => {
    const { providers, retrieve } = setUp();
    const retrieved = await retrieve([{ source: 'urn:gone', traceRef: 'x' }]);
    expect(retrieved.sources).toEqual([{ source: 'urn:gone', name: '', status: 'not_found', traceRef: 'x' }]);
    expect(providers.reads).toEqual([]);
  });

  it('answers 404 1060 for a session absent from the tenant', async () => {
    const { providers, retrieve } = setUp({ sessionExists: false });
    await expect(retrieve([{ source: 'urn:a', traceRef: 'a-1' }])).rejects.toMatchObject({ status: 404, code: 1060 });
    expect(providers.reads).toEqual([]);
  });

  it('checks access before reading', async () => {
    const { scopes, retrieve } = setUp({ refuseAccess: true });
    await expect(retrieve([{ source: 'urn:a', traceRef: 'a-1' }])).rejects.toMatchObject({ status: 403, code: 1004 });
    expect(scopes).toEqual([]);
  });
});
