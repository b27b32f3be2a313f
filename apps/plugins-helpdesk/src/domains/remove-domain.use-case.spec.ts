import { describe, expect, it } from 'vitest';
import { FakeAccess, FakeDirectory, FakeDomains, FakeProvider, FakeThrottle, OPERATOR, outcomeOf, TENANT } from '../../test/doubles/domains.fakes';
import { RemoveDomainUseCase } from './remove-domain.use-case';

const HOSTNAME = 'ajuda.acme.com.br';

function setUp() {
  const table = new FakeDomains();
  const access = new FakeAccess();
  const provider = new FakeProvider();
  const directory = new FakeDirectory();
  const throttle = new FakeThrottle();
  const useCase = new RemoveDomainUseCase(access.asAccess(), table.asRepository(), provider, directory.asDirectory(), throttle.asThrottle(), table.audit.asTrail(), table.asEvents());
  const remove = (hostname = HOSTNAME) => useCase.execute({ principal: OPERATOR, tenantID: TENANT, hostname });
  const added = () => table.seed({ hostname: HOSTNAME, providerID: provider.hold(HOSTNAME).id });
  return { table, access, provider, directory, throttle, remove, added };
}

describe('RemoveDomainUseCase', () => {
  it('deletes the hostname at the provider, then the entry, then makes every replica forget it', async () => {
    const { table, provider, directory, throttle, remove, added } = setUp();
    const domain = added();
    throttle.claims.set(domain.id, 0);
    expect(await remove()).toEqual({ deleted: true, domainHostname: HOSTNAME });
    expect(provider.calls).toEqual([`remove ${domain.providerID}`]);
    expect(provider.zone.size).toBe(0);
    expect(table.domains).toEqual([]);
    expect(directory.forgotten).toEqual([HOSTNAME]);
    expect(throttle.releases).toEqual([domain.id]);
    expect(table.audit.records.map(({ runner, record }) => [runner, record.action, record.targetID])).toEqual([[table.runner, 'helpdeskDomain.removed', HOSTNAME]]);
    expect(table.webhooks.events).toEqual([
      {
        runner: table.runner,
        tenantID: TENANT,
        event: { type: 'helpdeskDomain.removed', subject: `helpdeskDomain:${domain.id}`, data: { helpdeskDomainID: domain.id, domain: HOSTNAME } },
      },
    ]);
  });

  it('keeps the entry, and the cache, when the provider fails (502 1122), so the call can be repeated', async () => {
    const { table, provider, directory, remove, added } = setUp();
    added();
    provider.failing = true;
    expect(await outcomeOf(remove())).toBe('DomainProvisioning');
    expect(table.find(TENANT, HOSTNAME)).toBeDefined();
    expect(table.writes).toEqual([]);
    expect(table.webhooks.events).toEqual([]);
    expect(directory.forgotten).toEqual([]);
    provider.failing = false;
    expect(await outcomeOf(remove())).toBe('ok');
    expect(table.domains).toEqual([]);
  });

  it('finds the provider record by name when the entry has no provider id yet', async () => {
    const { table, provider, remove } = setUp();
    const held = provider.hold(HOSTNAME);
    table.seed({ hostname: HOSTNAME });
    await remove();
    expect(provider.calls).toEqual([`findByHostname ${HOSTNAME}`, `remove ${held.id}`]);
    expect(table.domains).toEqual([]);
  });

  it('drops an entry the provider never heard of', async () => {
    const { table, provider, remove } = setUp();
    table.seed({ hostname: HOSTNAME });
    expect(await outcomeOf(remove())).toBe('ok');
    expect(provider.calls).toEqual([`findByHostname ${HOSTNAME}`]);
    expect(table.domains).toEqual([]);
  });

  it('still answers deleted when the refresh slot cannot be released', async () => {
    const { table, throttle, remove, added } = setUp();
    added();
    throttle.failsToRelease = true;
    expect(await remove()).toEqual({ deleted: true, domainHostname: HOSTNAME });
    expect(table.domains).toEqual([]);
  });

  it('answers 404 1107 for a hostname the help center does not have, touching nothing', async () => {
    const { provider, directory, remove, added } = setUp();
    added();
    expect(await outcomeOf(remove('outro.acme.com.br'))).toBe('HelpdeskNotFound');
    expect(provider.calls).toEqual([]);
    expect(directory.forgotten).toEqual([]);
  });

  it.each(['Forbidden', 'TenantNotConnected'] as const)('refused access (%s) touches nothing', async (refusal) => {
    const { table, access, provider, directory, remove, added } = setUp();
    added();
    access.refusal = refusal;
    expect(await outcomeOf(remove())).toBe(refusal);
    expect(provider.calls).toEqual([]);
    expect(table.writes).toEqual([]);
    expect(directory.forgotten).toEqual([]);
  });
});
