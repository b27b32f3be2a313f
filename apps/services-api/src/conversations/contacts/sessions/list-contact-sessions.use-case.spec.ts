import { Principal, TenantScope, trustedTenantScope } from '@platform/auth';
import { describe, expect, it } from 'vitest';
import { fake, FakeTenantAccess } from '@platform/testing';
import type { SessionDto } from './contact-session.dto';
import type { ContactSessionsRepository } from './contact-sessions.repository';
import { ListContactSessionsUseCase } from './list-contact-sessions.use-case';
import type { SessionVisibility } from '../../sessions/session-visibility';

const tenantID = '5d1e0f3a-8c2b-4d6e-9f10-112233445566';
// Canonical, as the request rule (IsCanonicalUuid) hands it on.
const contactID = '7a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d';
const operator: Principal = { kind: 'operator', operatorID: '9c8b7a6d-5e4f-4321-8abc-def012345678' };

/** A contact with `visible` sessions the viewer may list. */
function setUp(visible: number, options: { refuseAccess?: boolean } = {}) {
  const calls: { method: string; scope: TenantScope; contactID: string; visibility: SessionVisibility; page?: { offset: number; limit: number } }[] = [];
  const tenantAccess = new FakeTenantAccess();
  if (options.refuseAccess) tenantAccess.refusal = 'Forbidden';
  const access = tenantAccess.asAccess();
  const sessions = fake<ContactSessionsRepository>({
    countVisible: async (scope: TenantScope, contact: string, visibility: SessionVisibility) => {
      calls.push({ method: 'countVisible', scope, contactID: contact, visibility });
      return visible;
    },
    pageWithCount: async (scope: TenantScope, contact: string, visibility: SessionVisibility, page: { offset: number; limit: number }) => {
      calls.push({ method: 'pageWithCount', scope, contactID: contact, visibility, page });
      const onPage = Math.max(0, Math.min(page.limit, visible - page.offset));
      return { totalCount: visible, data: Array.from({ length: onPage }, (_, index) => ({ sessionID: `session-${page.offset + index}` }) as SessionDto) };
    },
  });
  const useCase = new ListContactSessionsUseCase(access, sessions);
  const list = (principal: Principal, page = 1, perPage = 20) => useCase.execute({ principal, tenantID, contactID, page: { page, perPage } });
  return { calls, list };
}

describe('ListContactSessionsUseCase (operation 11)', () => {
  it('reads one page and its count for an operator, who sees what is visible to them', async () => {
    const { list, calls } = setUp(45);
    const { data, meta } = await list(operator, 2);
    expect(data.map((session) => session.sessionID)[0]).toBe('session-20');
    expect(meta).toEqual({ currentPage: 2, perPage: 20, totalCount: 45, hasMore: true });
    expect(calls).toEqual([
      {
        method: 'pageWithCount',
        scope: trustedTenantScope(tenantID),
        contactID,
        visibility: { kind: 'operator', operatorID: operator.kind === 'operator' ? operator.operatorID : '' },
        page: { offset: 20, limit: 20 },
      },
    ]);
  });

  it('shows a plugin every session, and a plugin connection those of its own inboxes', async () => {
    const { list, calls } = setUp(3);
    await list({ kind: 'plugin', pluginID: 'plugin-1' });
    await list({ kind: 'pluginConnection', pluginConnectionID: 'connection-1', pluginID: 'plugin-1', tenantID });
    expect(calls.map((call) => call.visibility)).toEqual([{ kind: 'all' }, { kind: 'pluginConnection', pluginConnectionID: 'connection-1' }]);
  });

  it('answers a page number too large for an offset with the count only', async () => {
    const { list, calls } = setUp(45);
    const { data, meta } = await list(operator, Number.MAX_SAFE_INTEGER, 100);
    expect(data).toEqual([]);
    expect(meta).toMatchObject({ totalCount: 45, hasMore: false });
    expect(calls.map((call) => call.method)).toEqual(['countVisible']);
  });

  it('answers an unknown contact with an empty last page', async () => {
    const { list } = setUp(0);
    expect(await list(operator)).toEqual({ data: [], meta: { currentPage: 1, perPage: 20, totalCount: 0, hasMore: false } });
  });

  it('checks access before reading', async () => {
    const { list, calls } = setUp(3, { refuseAccess: true });
    await expect(list(operator)).rejects.toMatchObject({ key: 'Forbidden' });
    expect(calls).toEqual([]);
  });
});
