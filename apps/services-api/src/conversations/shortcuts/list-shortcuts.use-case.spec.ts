import { OperatorPrincipal, TenantScope, trustedTenantScope } from '@platform/auth';
import type { ShortcutScope } from '@platform/database';
import { describe, expect, it } from 'vitest';
import { fake, FakeTenantAccess } from '@platform/testing';
import { ListShortcutsCommand, ListShortcutsUseCase } from './list-shortcuts.use-case';
import type { RangeSlice } from './page-split';
import type { ShortcutDto } from './shortcut.dto';
import type { ShortcutsRepository } from './shortcuts.repository';

const tenantID = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';
const principal: OperatorPrincipal = { kind: 'operator', operatorID: '9c8b7a6d-5e4f-4321-8abc-def012345678' };

const shortcut = (id: string) => ({ shortcutID: id }) as ShortcutDto;
/** The ids of a slice of a range of `size` rows named `prefix-<position>`, in list order. */
const slice = (prefix: string, size: number, { offset, limit, backward }: RangeSlice) => {
  const start = backward ? size - offset - limit : offset;
  return Array.from({ length: limit }, (_, index) => `${prefix}-${start + index}`);
};

/** The viewer's `personal` shortcuts and the tenant's `company` ones, as the repository answers them. */
function setUp(personal: number, company: number, options: { refuseAccess?: boolean } = {}) {
  const calls: { method: string; scope: TenantScope; operatorID: string; args: unknown[] }[] = [];
  const tenantAccess = new FakeTenantAccess();
  if (options.refuseAccess) tenantAccess.refusal = 'Forbidden';
  const access = tenantAccess.asAccess();
  const shortcuts = fake<ShortcutsRepository>({
    countVisible: async (scope: TenantScope, operatorID: string) => {
      calls.push({ method: 'countVisible', scope, operatorID, args: [] });
      return { personal, company };
    },
    page: async (scope: TenantScope, operatorID: string, mine: RangeSlice, theirs: RangeSlice) => {
      calls.push({ method: 'page', scope, operatorID, args: [mine, theirs] });
      return [...slice('personal', personal, mine), ...slice('company', company, theirs)].map(shortcut);
    },
    search: async (scope: TenantScope, operatorID: string, filter: { scope?: ShortcutScope; pattern: string }, page: { offset: string; limit: number }) => {
      calls.push({ method: 'search', scope, operatorID, args: [filter, page] });
      return { totalCount: 1, data: [shortcut('found')] };
    },
  });
  const useCase = new ListShortcutsUseCase(access, shortcuts);
  const list = (command: Partial<ListShortcutsCommand> = {}) => useCase.execute({ principal, tenantID, page: { page: 1, perPage: 20 }, ...command });
  return { calls, list };
}

const ids = (data: ShortcutDto[]) => data.map((row) => row.shortcutID);

describe('ListShortcutsUseCase (operation 7)', () => {
  it('lists personal shortcuts, then company-wide ones, counted from the counters', async () => {
    const { list, calls } = setUp(3, 30);
    const { data, meta } = await list({ page: { page: 1, perPage: 5 } });
    expect(ids(data)).toEqual(['personal-0', 'personal-1', 'personal-2', 'company-0', 'company-1']);
    expect(meta).toMatchObject({ count: 5, totalCount: 33, hasMore: true });
    expect(calls.map((call) => [call.method, call.scope, call.operatorID])).toEqual([
      ['countVisible', trustedTenantScope(tenantID), principal.operatorID],
      ['page', trustedTenantScope(tenantID), principal.operatorID],
    ]);
  });

  it('reads a page in the second half of a range from its end', async () => {
    const { list, calls } = setUp(0, 100);
    const { data } = await list({ page: { page: 5, perPage: 20 } });
    expect(ids(data)).toEqual(Array.from({ length: 20 }, (_, index) => `company-${80 + index}`));
    expect(calls[1].args[1]).toEqual({ offset: 0, limit: 20, backward: true });
  });

  it('keeps to one scope when asked', async () => {
    const { list } = setUp(3, 30);
    const { data, meta } = await list({ scope: 'user-based' });
    expect(ids(data)).toEqual(['personal-0', 'personal-1', 'personal-2']);
    expect(meta).toMatchObject({ totalCount: 3, hasMore: false });
  });

  it('answers a page past the end with the count only', async () => {
    const { list, calls } = setUp(3, 30);
    const { data, meta } = await list({ page: { page: 9, perPage: 20 } });
    expect(data).toEqual([]);
    expect(meta).toMatchObject({ count: 0, totalCount: 33, hasMore: false });
    expect(calls.map((call) => call.method)).toEqual(['countVisible']);
  });

  it('searches by a contains pattern, with an offset that stays exact past 2^53', async () => {
    const { list, calls } = setUp(3, 30);
    const { data } = await list({ search: '50%_off', scope: 'tenant-based', page: { page: 2 ** 53, perPage: 20 } });
    expect(ids(data)).toEqual(['found']);
    expect(calls).toHaveLength(1);
    expect(calls[0].args).toEqual([{ scope: 'tenant-based', pattern: '%50\\%\\_off%' }, { offset: ((2n ** 53n - 1n) * 20n).toString(), limit: 20 }]);
  });

  it('checks access before reading', async () => {
    const { list, calls } = setUp(3, 30, { refuseAccess: true });
    await expect(list()).rejects.toMatchObject({ key: 'Forbidden' });
    expect(calls).toEqual([]);
  });
});
