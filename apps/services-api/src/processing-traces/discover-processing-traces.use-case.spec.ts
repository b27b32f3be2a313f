import { OperatorPrincipal, TenantScope, trustedTenantScope } from '@platform/auth';
import { describe, expect, it } from 'vitest';
import { fake, FakeTenantAccess } from '@platform/testing';
import { DiscoverProcessingTracesUseCase } from './discover-processing-traces.use-case';
import type { ProcessingTracesRepository } from './processing-traces.repository';
import { InstalledTraceProvider, TraceCall, TraceProvider, TraceProviderFailure } from './trace-provider/trace.provider';
import type { ReadTrace, SessionTraceList } from './trace-provider/trace-protocol';
import type { TraceCredentials } from './trace-credentials';
import { TraceFanOut } from './trace-fan-out';

const tenantID = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';
const sessionID = '3b241101-e2bb-4255-8caf-4136c566a962';
const principal: OperatorPrincipal = { kind: 'operator', operatorID: '9c8b7a6d-5e4f-4321-8abc-def012345678' };
const [first, second, stranger] = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222', '99999999-9999-4999-8999-999999999999'];

const provider = (urn: string): InstalledTraceProvider => ({ pluginID: `plugin-${urn}`, urn, name: `Plugin ${urn}`, iconUrl: null, endpointUrl: `https://${urn}.test` });
const listed = (messageID: string, traceRef: string, startedAt: string) => ({
  messageID,
  messageFingerprint: '',
  traceRef,
  startedAt,
  durationMs: 100,
  status: 'succeeded' as const,
  stepCount: 2,
});

/** The trace provider port: each provider's answer, or the failure it meets. */
class FakeProviders extends TraceProvider {
  readonly lists = new Map<string, SessionTraceList | TraceProviderFailure>();
  readonly calls: { urn: string; call: TraceCall }[] = [];

  async list(target: InstalledTraceProvider, call: TraceCall): Promise<SessionTraceList> {
    this.calls.push({ urn: target.urn, call });
    const answer = this.lists.get(target.urn);
    if (!answer || answer instanceof TraceProviderFailure) throw answer ?? new TraceProviderFailure('error', 'no answer');
    return answer;
  }

  read(): Promise<ReadTrace[]> {
    throw new Error('not used');
  }
}

function setUp(options: { installed?: InstalledTraceProvider[]; sessionExists?: boolean; refuseAccess?: boolean } = {}) {
  const installed = options.installed ?? [provider('urn:a'), provider('urn:b')];
  const providers = new FakeProviders();
  const scopes: TenantScope[] = [];
  const tenantAccess = new FakeTenantAccess();
  if (options.refuseAccess) tenantAccess.refusal = 'Forbidden';
  const access = tenantAccess.asAccess();
  const repository = fake<ProcessingTracesRepository>({
    sessionExists: async (scope: TenantScope) => (scopes.push(scope), options.sessionExists ?? true),
    providersOf: async (scope: TenantScope) => (scopes.push(scope), installed),
    // The session's own messages, oldest first: `second` before `first`.
    sessionMessagesAmong: async (scope: TenantScope, _session: string, ids: string[]) => (scopes.push(scope), [second, first].filter((id) => ids.includes(id))),
  });
  const credentials = fake<TraceCredentials>({
    tokensFor: async (_tenant: string, _session: string, pluginIDs: string[]) => new Map(pluginIDs.map((pluginID) => [pluginID, `token-${pluginID}`])),
  });
  const fanOut = new TraceFanOut(credentials, { providerTimeoutMs: 1_000, retrievalCacheTtlSeconds: 60 });
  const useCase = new DiscoverProcessingTracesUseCase(access, repository, fanOut, providers);
  return { providers, scopes, discover: () => useCase.execute({ principal, tenantID, sessionID }) };
}

describe('DiscoverProcessingTracesUseCase (operation 9)', () => {
  it("condenses every provider's traced messages in the session's message order, each provider called with its credential", async () => {
    const { providers, scopes, discover } = setUp();
    providers.lists.set('urn:a', { sessionTraceRef: 'a-session', messages: [listed(first, 'a-1', '2026-01-01T00:00:01.000Z'), listed(stranger, 'a-x', '2026-01-01T00:00:00.000Z')] });
    providers.lists.set('urn:b', { messages: [listed(first, 'b-1', '2026-01-01T00:00:00.500Z'), listed(second, 'b-2', '2026-01-01T00:00:00.000Z')] });

    const discovered = await discover();

    expect(discovered.messages.map((message) => [message.messageID, message.traces.map((trace) => trace.traceRef)])).toEqual([
      [second, ['b-2']],
      [first, ['b-1', 'a-1']],
    ]);
    expect(discovered.sources).toEqual([
      { source: 'urn:a', name: 'Plugin urn:a', status: 'ready', traceRef: 'a-session' },
      { source: 'urn:b', name: 'Plugin urn:b', status: 'ready', traceRef: '' },
    ]);
    expect(providers.calls.map(({ urn, call }) => [urn, call.tenantID, call.sessionID, call.token])).toEqual([
      ['urn:a', tenantID, sessionID, 'token-plugin-urn:a'],
      ['urn:b', tenantID, sessionID, 'token-plugin-urn:b'],
    ]);
    expect(new Set(scopes)).toEqual(new Set([trustedTenantScope(tenantID)]));
  });

  it('reports a failing provider in sources and never fails the request', async () => {
    const { providers, discover } = setUp();
    providers.lists.set('urn:a', new TraceProviderFailure('timeout', 'too slow'));
    providers.lists.set('urn:b', { messages: [listed(first, 'b-1', '2026-01-01T00:00:00.000Z')] });

    const discovered = await discover();

    expect(discovered.messages).toHaveLength(1);
    expect(discovered.sources.map((source) => source.status)).toEqual(['timeout', 'ready']);
  });

  it('answers an empty discovery without calling anyone when no provider is installed', async () => {
    const { providers, discover } = setUp({ installed: [] });
    expect(await discover()).toEqual({ messages: [], sources: [], version: 1 });
    expect(providers.calls).toEqual([]);
  });

  it('answers 404 1060 for a session absent from the tenant', async () => {
    const { providers, discover } = setUp({ sessionExists: false });
    await expect(discover()).rejects.toMatchObject({ status: 404, code: 1060 });
    expect(providers.calls).toEqual([]);
  });

  it('checks access before reading', async () => {
    const { scopes, discover } = setUp({ refuseAccess: true });
    await expect(discover()).rejects.toMatchObject({ status: 403, code: 1004 });
    expect(scopes).toEqual([]);
  });
});
