import type { OperatorPrincipal, PluginConnectionPrincipal } from '@platform/auth';
import { fake, FakeTenantAccess } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { CONNECTION_ID, OPERATOR_ID, TENANT_ID } from '../../../test/doubles/conversations.fakes';
import { storedInbox } from '../../../test/doubles/inboxes.fakes';
import type { InboxesRepository, StoredInbox } from './inboxes.repository';
import { ListInboxesUseCase } from './list-inboxes.use-case';

const operator: OperatorPrincipal = { kind: 'operator', operatorID: OPERATOR_ID };
const connection: PluginConnectionPrincipal = { kind: 'pluginConnection', pluginID: 'a-plugin', pluginConnectionID: CONNECTION_ID, tenantID: TENANT_ID };
const OTHER_CONNECTION_ID = '4f1e2d3c-0b9a-4876-9543-210fedcba987';

/** Five inboxes, oldest first: three on the connection, two on another; the repository filters and pages them as its SQL does. */
function setUp() {
  const inboxes: StoredInbox[] = ['a', 'b', 'c', 'd', 'e'].map((name, index) =>
    storedInbox({ inboxID: `00000000-0000-4000-8000-00000000000${index}`, name, pluginConnectionID: index % 2 === 1 ? OTHER_CONNECTION_ID : CONNECTION_ID }),
  );
  const asked: { connection: string | null; offset: number; limit: number }[] = [];
  const useCase = new ListInboxesUseCase(
    new FakeTenantAccess().asAccess(),
    fake<InboxesRepository>({
      page: async (_scope: unknown, pluginConnectionID: string | null, page: { offset: number; limit: number }) => {
        asked.push({ connection: pluginConnectionID, ...page });
        const visible = inboxes.filter((inbox) => pluginConnectionID === null || inbox.pluginConnectionID === pluginConnectionID);
        return { totalCount: visible.length, data: visible.slice(page.offset, page.offset + page.limit) };
      },
    }),
  );
  const list = (principal: OperatorPrincipal | PluginConnectionPrincipal, page: number, perPage: number) => useCase.execute({ principal, tenantID: TENANT_ID, page: { page, perPage } });
  return { list, asked };
}

describe('ListInboxesUseCase', () => {
  it("lists every inbox of the tenant to an operator, a page at a time, with the page's meta", async () => {
    const { list, asked } = setUp();
    const second = await list(operator, 2, 2);
    expect(second.data.map((inbox) => inbox.name)).toEqual(['c', 'd']);
    expect(second.meta).toEqual({ count: 2, currentPage: 2, hasMore: true, perPage: 2, totalCount: 5, totalPages: 3 });
    expect(asked).toEqual([{ connection: null, offset: 2, limit: 2 }]);
  });

  it('lists a plugin connection its own inboxes alone', async () => {
    const { list, asked } = setUp();
    const page = await list(connection, 1, 10);
    expect(page.data.map((inbox) => inbox.name)).toEqual(['a', 'c', 'e']);
    expect(page.meta).toMatchObject({ count: 3, totalCount: 3, hasMore: false });
    expect(asked).toEqual([{ connection: CONNECTION_ID, offset: 0, limit: 10 }]);
  });

  it('answers an empty page, not an error, for a page past any offset the database can take', async () => {
    const { list, asked } = setUp();
    const page = await list(operator, Number.MAX_SAFE_INTEGER, 200);
    expect(page.data).toEqual([]);
    expect(page.meta).toMatchObject({ count: 0, totalCount: 5, hasMore: false });
    expect(asked).toEqual([{ connection: null, offset: Number.MAX_SAFE_INTEGER, limit: 200 }]);
  });
});
