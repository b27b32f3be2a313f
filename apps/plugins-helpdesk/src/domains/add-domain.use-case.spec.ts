import { describe, expect, it } from 'vitest';
import { AddDomainUseCase } from './add-domain.use-case';
import { FakeClock } from '@platform/testing';
import { FakeAccess, FakeDomains, FakeProvider, OPERATOR, OTHER_TENANT, outcomeOf, SETTINGS, TENANT } from '../../test/doubles/domains.fakes';
import { HostnameRegistration } from './hostname-registration';

const HOSTNAME = 'ajuda.acme.com.br';

function setUp() {
  const table = new FakeDomains();
  const access = new FakeAccess();
  const provider = new FakeProvider();
  const clock = new FakeClock();
  const useCase = new AddDomainUseCase(access.asAccess(), table.asRepository(), new HostnameRegistration(provider), clock, SETTINGS, table.audit.asTrail(), table.asEvents());
  /** When the key was claimed: after how many access checks, and before how many writes. */
  const claims: { checks: number; writes: number }[] = [];
  const idempotency = { claimKey: async () => void claims.push({ checks: access.checks, writes: table.writes.length }) };
  const add = (hostname = HOSTNAME) => useCase.execute({ principal: OPERATOR, tenantID: TENANT, hostname, idempotency });
  return { table, access, provider, clock, add, claims };
}

describe('AddDomainUseCase', () => {
  it('registers the hostname at the provider and stores it pending, checked now, with the provider id', async () => {
    const { table, provider, clock, add } = setUp();
    const answer = await add();
    expect(table.audit.records.map(({ runner, record }) => [runner, record.action, record.targetID])).toEqual([[table.runner, 'helpdeskDomain.added', HOSTNAME]]);
    expect(answer).toEqual({
      cnameTarget: SETTINGS.cnameTarget,
      domain: { domainHostname: HOSTNAME, domainProviderID: 'cf-1', domainStatus: 'pending', lastCheckedAt: clock.current.toISOString(), verifiedAt: null },
      statusReason: expect.stringContaining(HOSTNAME),
    });
    expect(provider.calls).toEqual([`register ${HOSTNAME}`]);
    expect(table.find(TENANT, HOSTNAME)).toMatchObject({ providerID: 'cf-1', status: 'pending' });
    expect(table.helpCenters.size).toBe(1);
  });

  it('emits helpdeskDomain.added with the stored status, in the transaction that stores it', async () => {
    const { table, add } = setUp();
    await add();
    const { id } = table.find(TENANT, HOSTNAME)!;
    expect(table.webhooks.events).toEqual([
      {
        runner: table.runner,
        tenantID: TENANT,
        event: { type: 'helpdeskDomain.added', subject: `helpdeskDomain:${id}`, data: { helpdeskDomainID: id, domain: HOSTNAME, status: 'pending' } },
      },
    ]);
  });

  it('emits nothing when the provider fails', async () => {
    const { table, provider, add } = setUp();
    provider.failing = true;
    await add().catch(() => undefined);
    expect(table.webhooks.events).toEqual([]);
  });

  it('stores it active, verified now, when the provider already serves it with a certificate', async () => {
    const { provider, clock, add } = setUp();
    provider.answer = { status: 'active', sslStatus: 'active', verificationErrors: [] };
    const { domain } = await add();
    expect(domain).toMatchObject({ domainStatus: 'active', verifiedAt: clock.current.toISOString(), lastCheckedAt: clock.current.toISOString() });
  });

  it('asks the access check for an owner among operators', async () => {
    const { access, add } = setUp();
    await add();
    expect(access.requirements).toEqual([{ operatorMustBeOwner: true }]);
  });

  it('claims the Idempotency-Key once access is granted and before any write; a refused caller claims nothing', async () => {
    const granted = setUp();
    await granted.add();
    expect(granted.claims).toEqual([{ checks: 1, writes: 0 }]);

    const refused = setUp();
    refused.access.refusal = 'Forbidden';
    await expect(refused.add()).rejects.toMatchObject({ key: 'Forbidden' });
    expect(refused.claims).toEqual([]);
  });

  it('answers 409 1972 once the tenant has as many domains as the limit allows, before the provider hears of it', async () => {
    const { table, provider, add } = setUp();
    for (const hostname of ['a.acme.com.br', 'b.acme.com.br', 'c.acme.com.br']) await add(hostname);
    provider.calls.length = 0;
    expect(await outcomeOf(add('d.acme.com.br'))).toBe('DomainLimitReached');
    expect(provider.calls).toEqual([]);
    expect(table.find(TENANT, 'd.acme.com.br')).toBeUndefined();
  });

  it('keeps one help center per tenant across domains', async () => {
    const { table, add } = setUp();
    await add('ajuda.acme.com.br');
    await add('suporte.acme.com.br');
    expect(table.helpCenters.size).toBe(1);
    expect(table.writes.filter((write) => write === 'help center created')).toHaveLength(1);
  });

  it.each(['Forbidden', 'TenantNotConnected'] as const)('refused access (%s) writes nothing and never reaches the provider', async (refusal) => {
    const { table, access, provider, add } = setUp();
    access.refusal = refusal;
    expect(await outcomeOf(add())).toBe(refusal);
    expect(table.writes).toEqual([]);
    expect(provider.calls).toEqual([]);
  });

  it('answers 409 1970 for a hostname another help center has, before the provider hears of it', async () => {
    const { table, provider, add } = setUp();
    table.seed({ tenantID: OTHER_TENANT, hostname: HOSTNAME });
    expect(await outcomeOf(add())).toBe('DomainHostnameTaken');
    expect(provider.calls).toEqual([]);
    expect(table.writes).toEqual([]);
  });

  it('releases the reservation when the provider refuses the name (1123)', async () => {
    const { table, provider, add } = setUp();
    provider.refuses = true;
    expect(await outcomeOf(add())).toBe('DomainHostnameRefused');
    expect(table.find(TENANT, HOSTNAME)).toBeUndefined();
    expect(table.writes).toEqual(['help center created', `reserved ${HOSTNAME}`, `removed ${HOSTNAME}`]);
  });

  it('releases the reservation when the provider fails (502 1122), so the hostname can be added afterwards', async () => {
    const { table, provider, add } = setUp();
    provider.failing = true;
    expect(await outcomeOf(add())).toBe('DomainProvisioning');
    expect(table.domains).toEqual([]);
    provider.failing = false;
    expect(await outcomeOf(add())).toBe('ok');
  });

  it("takes over the zone's record of a hostname the provider calls a duplicate", async () => {
    const { table, provider, add } = setUp();
    const left = provider.hold(HOSTNAME);
    const { domain } = await add();
    expect(domain.domainProviderID).toBe(left.id);
    expect(provider.calls).toEqual([`register ${HOSTNAME}`, `findByHostname ${HOSTNAME}`]);
    expect(table.find(TENANT, HOSTNAME)?.providerID).toBe(left.id);
  });

  it('answers 404 1107 when the domain was removed while the provider registered it', async () => {
    const { table, provider, add } = setUp();
    provider.duringRegistration = () => table.domains.splice(0);
    expect(await outcomeOf(add())).toBe('HelpdeskNotFound');
    expect(table.domains).toEqual([]);
  });
});
