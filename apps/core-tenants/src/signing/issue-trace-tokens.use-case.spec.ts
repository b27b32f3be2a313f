import { trustedTenantScope } from '@platform/auth';
import type { TenantScope } from '@platform/auth';
import { describe, expect, it } from 'vitest';
import { fake } from '@platform/testing';
import { IssueTraceTokensUseCase } from './issue-trace-tokens.use-case';
import type { TokenSubjectsRepository, TraceProvider } from './token-subjects.repository';
import type { TraceTokenSigner, TraceTokenSubject } from './trace-token.signer';

const tenantID = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';
const sessionID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const tracer = { id: '11111111-0000-4000-8000-000000000001', urn: 'urn:plugin:tracer' };
const other = { id: '11111111-0000-4000-8000-000000000002', urn: 'urn:plugin:other' };
const notInstalled = '11111111-0000-4000-8000-000000000003';

/** Live trace providers per tenant, as the repository would find them. */
function useCase(providers: Record<string, TraceProvider[]>) {
  const asked: { scope: TenantScope; pluginIDs: string[] }[] = [];
  const signed: TraceTokenSubject[] = [];
  const subjects = fake<TokenSubjectsRepository>({
    liveTraceProviders: async (scope: TenantScope, pluginIDs: string[]) => {
      asked.push({ scope, pluginIDs });
      return (providers[scope.tenantID] ?? []).filter((plugin) => pluginIDs.includes(plugin.id));
    },
  });
  const signer = fake<TraceTokenSigner>({
    issue: async (subject: TraceTokenSubject) => {
      signed.push(subject);
      return { token: `token-for-${subject.pluginURN}`, expiresInSeconds: 300 };
    },
  });
  return { asked, signed, issue: new IssueTraceTokensUseCase(subjects, signer) };
}

describe('IssueTraceTokensUseCase', () => {
  it('issues one token per live trace provider of the tenant, naming the tenant, the session and the plugin', async () => {
    const { issue, signed } = useCase({ [tenantID]: [tracer, other] });
    const tokens = await issue.execute({ scope: trustedTenantScope(tenantID), sessionID, pluginIDs: [tracer.id, other.id] });
    expect(tokens).toEqual([
      { pluginID: tracer.id, token: 'token-for-urn:plugin:tracer', expiresInSeconds: 300 },
      { pluginID: other.id, token: 'token-for-urn:plugin:other', expiresInSeconds: 300 },
    ]);
    expect(signed).toEqual([
      { tenantID, sessionID, pluginID: tracer.id, pluginURN: tracer.urn },
      { tenantID, sessionID, pluginID: other.id, pluginURN: other.urn },
    ]);
  });

  it('leaves out plugins that are not live trace providers of the tenant', async () => {
    const { issue, signed } = useCase({ [tenantID]: [tracer] });
    const tokens = await issue.execute({ scope: trustedTenantScope(tenantID), sessionID, pluginIDs: [tracer.id, notInstalled] });
    expect(tokens.map((token) => token.pluginID)).toEqual([tracer.id]);
    expect(signed).toHaveLength(1);
  });

  it('answers no tokens, and signs nothing, when none of the plugins qualifies', async () => {
    const { issue, signed } = useCase({});
    expect(await issue.execute({ scope: trustedTenantScope(tenantID), sessionID, pluginIDs: [notInstalled] })).toEqual([]);
    expect(signed).toEqual([]);
  });

  it('reads and signs with lower-cased ids, whatever case the message used', async () => {
    const { issue, asked, signed } = useCase({ [tenantID]: [tracer] });
    await issue.execute({ scope: trustedTenantScope(tenantID.toUpperCase()), sessionID: sessionID.toUpperCase(), pluginIDs: [tracer.id.toUpperCase()] });
    expect(asked).toEqual([{ scope: { tenantID }, pluginIDs: [tracer.id] }]);
    expect(signed).toEqual([{ tenantID, sessionID, pluginID: tracer.id, pluginURN: tracer.urn }]);
  });
});
