import { describe, expect, it } from 'vitest';
import { FakeAccess, FakeDomains, OPERATOR, OTHER_TENANT, outcomeOf, TENANT } from '../../test/doubles/domains.fakes';
import { ListDomainsUseCase } from './list-domains.use-case';

function setUp() {
  const table = new FakeDomains();
  const access = new FakeAccess();
  const useCase = new ListDomainsUseCase(access.asAccess(), table.asRepository());
  const list = (page: number, perPage: number) => useCase.execute({ principal: OPERATOR, tenantID: TENANT, page: { page, perPage } });
  return { table, access, list };
}

describe('ListDomainsUseCase', () => {
  it("lists the tenant's domains only, by hostname, with the page's meta", async () => {
    const { table, list } = setUp();
    for (const hostname of ['c.acme.com.br', 'a.acme.com.br', 'b.acme.com.br']) table.seed({ hostname });
    table.seed({ tenantID: OTHER_TENANT, hostname: 'aa.other.com.br' });
    const first = await list(1, 2);
    expect(first.data.map((domain) => domain.domainHostname)).toEqual(['a.acme.com.br', 'b.acme.com.br']);
    expect(first.meta).toEqual({ count: 2, currentPage: 1, hasMore: true, perPage: 2, totalCount: 3, totalPages: 2 });
    const second = await list(2, 2);
    expect(second.data.map((domain) => domain.domainHostname)).toEqual(['c.acme.com.br']);
    expect(second.meta).toMatchObject({ count: 1, hasMore: false });
  });

  it('answers an empty page past the end without reading rows', async () => {
    const { table, list } = setUp();
    table.seed({ hostname: 'a.acme.com.br' });
    const answer = await list(3, 20);
    expect(answer.data).toEqual([]);
    expect(answer.meta).toMatchObject({ count: 0, totalCount: 1, hasMore: false });
    expect(table.reads).toEqual(['count']);
  });

  it.each(['Forbidden', 'TenantNotConnected'] as const)('refused access (%s) reads nothing', async (refusal) => {
    const { table, access, list } = setUp();
    access.refusal = refusal;
    expect(await outcomeOf(list(1, 20))).toBe(refusal);
    expect(table.reads).toEqual([]);
  });
});
