import type { OperatorPrincipal, PluginConnectionPrincipal } from '@platform/auth';
import { KeysetCursors } from '@platform/http-common';
import { fake, FakeTenantAccess } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import { CONNECTION_ID, OPERATOR_ID, TENANT_ID } from '../../../test/doubles/conversations.fakes';
import type { ExactTimeAndID } from '../../exact-time-position';
import { INBOX_SESSION_PAGES } from '../inbox-sessions/inbox-session-cursor';
import { CONTACT_PAGES } from './contact-cursor';
import type { ContactsRepository, ContactViewer, ListedContact } from './contacts.repository';
import { ListContactsUseCase } from './list-contacts.use-case';

const operator: OperatorPrincipal = { kind: 'operator', operatorID: OPERATOR_ID };
const connection: PluginConnectionPrincipal = { kind: 'pluginConnection', pluginID: 'a-plugin', pluginConnectionID: CONNECTION_ID, tenantID: TENANT_ID };
const cursors = new KeysetCursors({ current: 'the cursor key of the contacts spec' });

/** The tenant's contacts, newest first: `count` of them, a second apart. */
function directory(count: number): ListedContact[] {
  return Array.from({ length: count }, (_, index) => {
    const contactID = `3c5e7a9b-1d2f-4a6c-8e0b-2d4f6a8c0e${String(index).padStart(2, '0')}`;
    const at = `2026-11-28T12:00:${String(59 - index).padStart(2, '0')}.000123Z`;
    return { contact: { contactID, name: `Contact ${index}`, handles: [], createdAt: at, updatedAt: at }, position: { at, id: contactID } };
  });
}

/** What the use case asked the repository, and a repository that pages `contacts` strictly after the position, as its SQL does (the viewer and handle are its SQL's: repository spec). */
function setUp(contacts: ListedContact[]) {
  const access = new FakeTenantAccess();
  const asked: { viewer: ContactViewer; handle: string | undefined; after: ExactTimeAndID | undefined; limit: number }[] = [];
  const useCase = new ListContactsUseCase(
    access.asAccess(),
    fake<ContactsRepository>({
      page: async (_scope: unknown, viewer: ContactViewer, handle: string | undefined, after: ExactTimeAndID | undefined, limit: number) => {
        asked.push({ viewer, handle, after, limit });
        const from = after === undefined ? 0 : contacts.findIndex((listed) => listed.position.id === after.id) + 1;
        return contacts.slice(from, from + limit);
      },
    }),
    cursors,
  );
  const list = (principal: OperatorPrincipal | PluginConnectionPrincipal, query: { handle?: string; limit: number; cursor?: string }) =>
    useCase.execute({ principal, tenantID: TENANT_ID, ...query });
  return { list, asked, access };
}

describe('ListContactsUseCase', () => {
  it('pages the contacts by keyset, one more read than the page, a cursor naming the last of a full page and none on the last', async () => {
    const contacts = directory(3);
    const { list, asked } = setUp(contacts);
    const first = await list(operator, { limit: 2 });
    expect(first.data).toEqual([contacts[0].contact, contacts[1].contact]);
    const last = await list(operator, { limit: 2, cursor: first.meta.nextCursor ?? undefined });
    expect(last).toEqual({ data: [contacts[2].contact], meta: { limit: 2, nextCursor: null } });
    expect(asked.map(({ after, limit }) => ({ after, limit }))).toEqual([
      { after: undefined, limit: 3 },
      { after: contacts[1].position, limit: 3 },
    ]);
  });

  it("reads every contact for an operator, and for a plugin connection only those of its own sessions, with the handle as given", async () => {
    const { list, asked, access } = setUp(directory(1));
    await list(operator, { limit: 10 });
    await list(connection, { limit: 10, handle: '+5511987654321' });
    expect(asked.map(({ viewer, handle }) => ({ viewer, handle }))).toEqual([
      { viewer: { kind: 'operator' }, handle: undefined },
      { viewer: { kind: 'pluginConnection', pluginConnectionID: CONNECTION_ID }, handle: '+5511987654321' },
    ]);
    expect(access.checks).toEqual([
      { tenantID: TENANT_ID, requirement: { tenantNotFoundIs404: true } },
      { tenantID: TENANT_ID, requirement: { tenantNotFoundIs404: true } },
    ]);
  });

  it("refuses a cursor of another list (an inbox's sessions) with 400 1002 on `cursor`, before the access check", async () => {
    const { list, asked, access } = setUp(directory(1));
    const position = { at: '2026-11-28T12:00:01.000123Z', id: '3c5e7a9b-1d2f-4a6c-8e0b-2d4f6a8c0e1f' };
    await expect(list(operator, { limit: 10, cursor: cursors.issue(INBOX_SESSION_PAGES, position) })).rejects.toMatchObject({
      key: 'RequestValidation',
      fields: [expect.objectContaining({ field: 'cursor' })],
    });
    expect(access.checks).toEqual([]);
    expect(asked).toEqual([]);
    // The same position in this list's own cursor is taken.
    await list(operator, { limit: 10, cursor: cursors.issue(CONTACT_PAGES, position) });
    expect(asked).toHaveLength(1);
  });
});
