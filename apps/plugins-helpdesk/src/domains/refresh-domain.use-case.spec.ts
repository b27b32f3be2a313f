import { describe, expect, it } from 'vitest';
import { AppException } from '@platform/errors';
import { FakeClock } from '@platform/testing';
import { FakeAccess, FakeDomains, FakeProvider, FakeThrottle, OPERATOR, outcomeOf, SETTINGS, TENANT } from '../../test/doubles/domains.fakes';
import { HostnameRegistration } from './hostname-registration';
import { RefreshDomainUseCase } from './refresh-domain.use-case';

const HOSTNAME = 'ajuda.acme.com.br';
const ACTIVE = { status: 'active', sslStatus: 'active', verificationErrors: [] };

function setUp() {
  const table = new FakeDomains();
  const access = new FakeAccess();
  const provider = new FakeProvider();
  const throttle = new FakeThrottle();
  const clock = new FakeClock();
  const useCase = new RefreshDomainUseCase(access.asAccess(), table.asRepository(), throttle.asThrottle(), provider, new HostnameRegistration(provider), clock, SETTINGS, table.audit.asTrail(), table.asEvents());
  const refresh = (hostname = HOSTNAME) => useCase.execute({ principal: OPERATOR, tenantID: TENANT, hostname });
  /** A domain added earlier: held at the provider, stored pending. */
  const added = () => table.seed({ hostname: HOSTNAME, providerID: provider.hold(HOSTNAME).id, lastCheckedAt: new Date('2026-03-01T00:00:00.000Z') });
  return { table, access, provider, throttle, clock, refresh, added };
}

describe('RefreshDomainUseCase', () => {
  it("stores the provider's answer: active, verified and checked now", async () => {
    const { table, provider, clock, refresh, added } = setUp();
    const domain = added();
    provider.answer = ACTIVE;
    const answer = await refresh();
    expect(table.audit.actions()).toEqual(['helpdeskDomain.activated']);
    expect(answer).toEqual({
      cnameTarget: SETTINGS.cnameTarget,
      domain: { domainHostname: HOSTNAME, domainProviderID: domain.providerID, domainStatus: 'active', lastCheckedAt: clock.current.toISOString(), verifiedAt: clock.current.toISOString() },
      statusReason: expect.stringContaining('Domínio ativo'),
    });
    expect(provider.calls).toEqual([`find ${domain.providerID}`]);
  });

  it('emits helpdeskDomain.statusChanged for a change of status, in the transaction that records it, and nothing otherwise', async () => {
    const { table, provider, clock, refresh, added } = setUp();
    const domain = added();
    await refresh();
    expect(table.webhooks.events).toEqual([]);
    provider.answer = ACTIVE;
    clock.advance(10_000);
    await refresh();
    expect(table.webhooks.events).toEqual([
      {
        runner: table.runner,
        tenantID: TENANT,
        event: {
          type: 'helpdeskDomain.statusChanged',
          subject: `helpdeskDomain:${domain.id}`,
          data: { helpdeskDomainID: domain.id, domain: HOSTNAME, previousStatus: 'pending', status: 'active' },
        },
      },
    ]);
  });

  it('stays pending with the reason while the provider has not activated it', async () => {
    const { table, provider, refresh, added } = setUp();
    added();
    provider.answer = { status: 'pending', sslStatus: 'initializing', verificationErrors: ['custom hostname does not CNAME to this zone.'] };
    const answer = await refresh();
    expect(answer.domain).toMatchObject({ domainStatus: 'pending', verifiedAt: null });
    expect(answer.statusReason).toContain(SETTINGS.cnameTarget);
    expect(table.audit.records).toEqual([]);
  });

  it('answers 429 1121 within 10 s of the last check, with the seconds left, reaching neither the provider nor the table', async () => {
    const { table, provider, clock, refresh, added } = setUp();
    added();
    await refresh();
    const calls = provider.calls.length;
    const writes = table.writes.length;
    clock.advance(2_500);
    const refused = await refresh().catch((error: AppException) => error);
    expect(refused).toMatchObject({ key: 'DomainRefreshThrottled', retryAfterSeconds: 8 });
    expect(provider.calls).toHaveLength(calls);
    expect(table.writes).toHaveLength(writes);
    clock.advance(7_500);
    expect(await outcomeOf(refresh())).toBe('ok');
  });

  it('stamps verifiedAt once, the first time the domain is active, and never moves it', async () => {
    const { provider, clock, refresh, added } = setUp();
    added();
    provider.answer = ACTIVE;
    const firstActive = clock.current.toISOString();
    await refresh();
    clock.advance(60_000);
    const later = await refresh();
    expect(later.domain).toMatchObject({ verifiedAt: firstActive, lastCheckedAt: clock.current.toISOString() });
  });

  it('changes nothing stored when the provider fails (502 1122)', async () => {
    const { table, provider, refresh, added } = setUp();
    const before = { ...added() };
    provider.failing = true;
    expect(await outcomeOf(refresh())).toBe('DomainProvisioning');
    expect(table.find(TENANT, HOSTNAME)).toEqual(before);
    expect(table.writes).toEqual([]);
  });

  it('registers again a hostname the provider no longer has, and stores the new provider id', async () => {
    const { table, provider, refresh, added } = setUp();
    const { providerID } = added();
    provider.zone.clear();
    const answer = await refresh();
    expect(provider.calls).toEqual([`find ${providerID}`, `register ${HOSTNAME}`]);
    expect(answer.domain.domainProviderID).not.toBe(providerID);
    expect(table.find(TENANT, HOSTNAME)?.providerID).toBe(answer.domain.domainProviderID);
  });

  it("takes over the zone's record when the domain has no provider id yet", async () => {
    const { table, provider, refresh } = setUp();
    const held = provider.hold(HOSTNAME);
    table.seed({ hostname: HOSTNAME });
    const answer = await refresh();
    expect(provider.calls).toEqual([`register ${HOSTNAME}`, `findByHostname ${HOSTNAME}`]);
    expect(answer.domain.domainProviderID).toBe(held.id);
  });

  it('answers 404 1107 for a hostname the help center does not have, before claiming a check', async () => {
    const { throttle, provider, refresh } = setUp();
    expect(await outcomeOf(refresh('outro.acme.com.br'))).toBe('HelpdeskNotFound');
    expect(throttle.claims.size).toBe(0);
    expect(provider.calls).toEqual([]);
  });

  it.each(['Forbidden', 'TenantNotConnected'] as const)('refused access (%s) comes before the domain: nothing claimed, nothing called', async (refusal) => {
    const { access, throttle, provider, refresh, added } = setUp();
    added();
    access.refusal = refusal;
    expect(await outcomeOf(refresh())).toBe(refusal);
    expect(await outcomeOf(refresh('outro.acme.com.br'))).toBe(refusal);
    expect(throttle.claims.size).toBe(0);
    expect(provider.calls).toEqual([]);
  });

  it('answers 404 1107 when the domain was removed while the provider was asked', async () => {
    const { table, provider, refresh, added } = setUp();
    added();
    const find = provider.find.bind(provider);
    provider.find = async (providerID) => {
      table.domains.splice(0);
      return find(providerID);
    };
    expect(await outcomeOf(refresh())).toBe('HelpdeskNotFound');
    expect(table.domains).toEqual([]);
  });
});
