import type { OperatorPrincipal, PluginConnectionPrincipal } from '@platform/auth';
import { KeysetCursors } from '@platform/http-common';
import { fake, FakeTenantAccess } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { CONNECTION_ID, INBOX_ID, OPERATOR_ID, OTHER_OPERATOR_ID, sessionView, TENANT_ID } from '../../../test/doubles/conversations.fakes';
import { inboxesOver, storedInbox } from '../../../test/doubles/inboxes.fakes';
import type { ExactTimeAndID } from '../../exact-time-position';
import { MESSAGE_PAGES } from '../messages/message-cursor';
import { INBOX_SESSION_PAGES } from './inbox-session-cursor';
import type { InboxSessionsRepository, QueuedSession, QueueFilters, QueueVisibility } from './inbox-sessions.repository';
import { ListInboxSessionsUseCase } from './list-inbox-sessions.use-case';

const operator: OperatorPrincipal = { kind: 'operator', operatorID: OPERATOR_ID };
const connection = (pluginConnectionID: string): PluginConnectionPrincipal => ({ kind: 'pluginConnection', pluginID: 'a-plugin', pluginConnectionID, tenantID: TENANT_ID });
const cursors = new KeysetCursors({ current: 'the cursor key of the inbox sessions spec' });

/** The inbox's queue, most recently active first: `count` sessions, a second apart. */
function queue(count: number): QueuedSession[] {
  return Array.from({ length: count }, (_, index) => {
    const sessionID = `7a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c${String(index).padStart(2, '0')}`;
    return { session: sessionView({ sessionID }).session, position: { at: `2026-11-28T12:00:${String(59 - index).padStart(2, '0')}.000123Z`, id: sessionID } };
  });
}

/** What the use case asked the repository, and a repository that pages `sessions` strictly after the position, as its SQL does (filters and visibility are its SQL's: repository spec). */
function setUp(sessions: QueuedSession[], access = new FakeTenantAccess()) {
  const asked: { inboxID: string; visibility: QueueVisibility; filters: QueueFilters; after: ExactTimeAndID | undefined; limit: number }[] = [];
  const useCase = new ListInboxSessionsUseCase(
    access.asAccess(),
    inboxesOver([storedInbox()]).repository,
    fake<InboxSessionsRepository>({
      page: async (_scope: unknown, inboxID: string, visibility: QueueVisibility, filters: QueueFilters, after: ExactTimeAndID | undefined, limit: number) => {
        asked.push({ inboxID, visibility, filters, after, limit });
        const from = after === undefined ? 0 : sessions.findIndex((queued) => queued.position.id === after.id) + 1;
        return sessions.slice(from, from + limit);
      },
    }),
    cursors,
  );
  const list = (principal: OperatorPrincipal | PluginConnectionPrincipal, query: { state?: 'queued' | 'assigned' | 'open' | 'closed'; assignee?: string; limit: number; cursor?: string }) =>
    useCase.execute({ principal, tenantID: TENANT_ID, inboxID: INBOX_ID, ...query });
  return { list, asked, access };
}

describe('ListInboxSessionsUseCase', () => {
  it('pages the queue by keyset, one more read than the page, a cursor naming the last of a full page and none on the last', async () => {
    const sessions = queue(3);
    const { list, asked } = setUp(sessions);
    const first = await list(operator, { limit: 2 });
    expect(first.data.map((session) => session.sessionID)).toEqual([sessions[0].session.sessionID, sessions[1].session.sessionID]);
    const last = await list(operator, { limit: 2, cursor: first.meta.nextCursor ?? undefined });
    expect(last).toEqual({ data: [sessions[2].session], meta: { limit: 2, nextCursor: null } });
    expect(asked.map(({ after, limit }) => ({ after, limit }))).toEqual([
      { after: undefined, limit: 3 },
      { after: sessions[1].position, limit: 3 },
    ]);
  });

  it("reads the sessions as the caller may see them: an operator's own rule, a connection's inbox", async () => {
    const { list, asked } = setUp(queue(1));
    await list(operator, { limit: 10 });
    await list(connection(CONNECTION_ID), { limit: 10 });
    expect(asked.map(({ inboxID, visibility }) => ({ inboxID, visibility }))).toEqual([
      { inboxID: INBOX_ID, visibility: { kind: 'operator', operatorID: OPERATOR_ID } },
      { inboxID: INBOX_ID, visibility: { kind: 'pluginConnection', pluginConnectionID: CONNECTION_ID } },
    ]);
  });

  it("passes the filters: the state as given, `mine` as the operator, an operator's id in canonical case, `unassigned` and `someone` as such", async () => {
    const { list, asked } = setUp(queue(1));
    await list(operator, { limit: 10, state: 'queued' });
    await list(operator, { limit: 10, assignee: 'mine' });
    await list(operator, { limit: 10, assignee: OTHER_OPERATOR_ID.toUpperCase() });
    await list(connection(CONNECTION_ID), { limit: 10, assignee: 'unassigned' });
    await list(connection(CONNECTION_ID), { limit: 10, state: 'open', assignee: 'someone' });
    expect(asked.map(({ filters }) => filters)).toEqual([
      { state: 'queued', assignee: undefined },
      { state: undefined, assignee: { kind: 'operator', operatorID: OPERATOR_ID } },
      { state: undefined, assignee: { kind: 'operator', operatorID: OTHER_OPERATOR_ID } },
      { state: undefined, assignee: { kind: 'unassigned' } },
      { state: 'open', assignee: { kind: 'someone' } },
    ]);
  });

  it('refuses `mine` from a plugin connection, which has no sessions of its own, with 400 1002 on `assignee`, before the access check', async () => {
    const { list, asked, access } = setUp(queue(1));
    await expect(list(connection(CONNECTION_ID), { limit: 10, assignee: 'mine' })).rejects.toMatchObject({ key: 'RequestValidation', fields: [expect.objectContaining({ field: 'assignee' })] });
    expect(access.checks).toEqual([]);
    expect(asked).toEqual([]);
  });

  it("refuses a cursor of another list (a session's messages) with 400 1002 on `cursor`, before the access check", async () => {
    const { list, asked, access } = setUp(queue(1));
    const messagesCursor = cursors.issue(MESSAGE_PAGES, { createdAt: '2026-11-28T12:00:01.000123Z', messageID: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d' });
    await expect(list(operator, { limit: 10, cursor: messagesCursor })).rejects.toMatchObject({ key: 'RequestValidation', fields: [expect.objectContaining({ field: 'cursor' })] });
    // The same position in this list's own cursor is taken.
    await list(operator, { limit: 10, cursor: cursors.issue(INBOX_SESSION_PAGES, { at: '2026-11-28T12:00:01.000123Z', id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d' }) });
    expect(access.checks).toHaveLength(1);
    expect(asked).toHaveLength(1);
  });

  it("answers 404 1940 for another connection's inbox and for one the tenant has not, reading no session", async () => {
    const { list, asked } = setUp(queue(1));
    await expect(list(connection('4f1e2d3c-0b9a-4876-9543-210fedcba987'), { limit: 10 })).rejects.toMatchObject({ key: 'InboxNotFound' });
    expect(asked).toEqual([]);
  });
});
