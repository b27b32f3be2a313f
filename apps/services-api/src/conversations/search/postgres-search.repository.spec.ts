import { trustedTenantScope } from '@platform/auth';
import { ConversationFixtures, createTestDataSource, FixtureBuilder } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionVisibility } from '../sessions/session-visibility';
import type { ContactSearchPosition, MessageSearchPosition, SearchQuery } from './conversation-search';
import { PostgresSearch } from './postgres-search.repository';

/** Text an attacker may type: SQL quoting, tsquery operators, LIKE wildcards. */
const HOSTILE_TEXTS = ["'", "''", '&', '|', '!', ':*', '<->', '!!', '(', ')', "a' & 'b", 'drop | table', 'pedido:*', 'a <-> b', '\\', '%', '_', "'); DROP TABLE messages; --", '"', '""', '-', 'or'];

/**
 * Search's SQL against PostgreSQL: messages by their words (the 'simple'
 * configuration, websearch syntax), contacts by a substring of a name or a
 * handle, newest first by keyset, only what the viewer may see, and never
 * another tenant's rows whatever the text.
 */
describe('PostgresSearch', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let search: PostgresSearch;
  let conversations: ConversationFixtures;
  let tenantID: string;
  let otherTenantID: string;
  let operatorID: string;
  let otherOperatorID: string;
  const connectionID = randomUUID();
  const otherConnectionID = randomUUID();
  let inboxID: string;
  let otherInboxID: string;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    search = new PostgresSearch(dataSource);
    const fixtures = new FixtureBuilder(dataSource);
    conversations = new ConversationFixtures(dataSource);
    tenantID = await fixtures.tenant();
    otherTenantID = await fixtures.tenant();
    operatorID = (await fixtures.operator()).operatorID;
    otherOperatorID = (await fixtures.operator()).operatorID;
    inboxID = await conversations.inbox(tenantID, { pluginConnectionID: connectionID });
    otherInboxID = await conversations.inbox(tenantID, { pluginConnectionID: otherConnectionID });
  });
  afterAll(() => close?.());

  const ALL: SessionVisibility = { kind: 'all' };
  const at = (seconds: number) => new Date(Date.UTC(2026, 5, 1, 12, 0, seconds));
  const query = <Position>(text: string, options: Partial<SearchQuery<Position>> = {}): SearchQuery<Position> => ({
    scope: trustedTenantScope(tenantID),
    visibility: ALL,
    text,
    after: undefined,
    limit: 50,
    ...options,
  });
  const messageIDs = async (text: string, options: Partial<SearchQuery<MessageSearchPosition>> = {}) =>
    (await search.messages(query(text, options))).map((found) => found.result.messageID);
  const contactIDs = async (text: string, options: Partial<SearchQuery<ContactSearchPosition>> = {}) =>
    (await search.contacts(query(text, options))).map((found) => found.result.contactID);
  const session = async (tenant: string, options: { inbox?: string; listed?: boolean; operatorID?: string | null; participants?: string[]; contactName?: string } = {}) => {
    const contactID = await conversations.contact(tenant, options.contactName);
    const sessionID = await conversations.session(tenant, { contactID, inboxID: options.inbox ?? inboxID, listed: options.listed, operatorID: options.operatorID, participants: options.participants });
    return { contactID, sessionID };
  };
  const handle = (tenant: string, contactID: string, text: string, channel = 'whatsapp') =>
    dataSource.query('INSERT INTO contact_handles (tenant_id, channel, handle, contact_id) VALUES ($1, $2, $3, $4)', [tenant, channel, text, contactID]);

  describe('messages', () => {
    it('finds the text messages holding every word, whatever their case, newest first, in pages that follow each other', async () => {
      const { sessionID } = await session(tenantID);
      const oldest = await conversations.message(tenantID, sessionID, { value: 'O PEDIDO 4411 atrasou', createdAt: at(0) });
      const tied = [
        await conversations.message(tenantID, sessionID, { value: 'pedido 4411: chegou?', createdAt: at(1) }),
        await conversations.message(tenantID, sessionID, { value: 'Meu pedido 4411 não chegou', createdAt: at(1) }),
      ].sort();
      const newest = await conversations.message(tenantID, sessionID, { value: 'cadê o pedido 4411', createdAt: at(2) });
      await conversations.message(tenantID, sessionID, { value: 'o pedido 9999', createdAt: at(3) });
      await conversations.message(tenantID, sessionID, { key: 'image', value: { caption: 'pedido 4411' }, createdAt: at(4) });
      const order = [newest, tied[1], tied[0], oldest];

      expect(await messageIDs('Pedido 4411')).toEqual(order);
      const first = await search.messages(query('pedido 4411', { limit: 2 }));
      expect(first.map((found) => found.result.messageID)).toEqual(order.slice(0, 2));
      expect(first[0].result).toMatchObject({ sessionID, messageValue: 'cadê o pedido 4411', messageKey: 'text' });
      expect(first[1].position).toEqual({ createdAt: '2026-06-01T12:00:01.000000Z', messageID: tied[1] });
      expect(await messageIDs('pedido 4411', { after: first[1].position, limit: 2 })).toEqual(order.slice(2));
      expect(await messageIDs('pedido 4411', { after: { createdAt: '2026-06-01T12:00:00.000000Z', messageID: oldest } })).toEqual([]);
    });

    it('reads the websearch syntax: a phrase, or, a word left out; words whole, with no stemming', async () => {
      const { sessionID } = await session(tenantID);
      const late = await conversations.message(tenantID, sessionID, { value: 'entrega atrasada de novo', createdAt: at(10) });
      const lost = await conversations.message(tenantID, sessionID, { value: 'entrega perdida', createdAt: at(11) });

      expect(await messageIDs('"entrega atrasada"')).toEqual([late]);
      expect(await messageIDs('"atrasada entrega"')).toEqual([]);
      expect(await messageIDs('atrasada or perdida')).toEqual([lost, late]);
      expect(await messageIDs('entrega -perdida')).toEqual([late]);
      expect(await messageIDs('entregas')).toEqual([]);
      expect(await messageIDs('entreg')).toEqual([]);
    });

    it("finds only the sessions the viewer may see: an operator's listed, assigned and joined ones; a connection's own inboxes'", async () => {
      const word = `visível${Date.now()}`;
      const listed = await session(tenantID, { listed: true });
      const assigned = await session(tenantID, { listed: false, operatorID });
      const joined = await session(tenantID, { listed: false, operatorID: otherOperatorID, participants: [operatorID] });
      const unseen = await session(tenantID, { listed: false, operatorID: otherOperatorID });
      const otherInbox = await session(tenantID, { inbox: otherInboxID });
      const ids: Record<string, string> = {};
      for (const [name, { sessionID }] of Object.entries({ listed, assigned, joined, unseen, otherInbox })) {
        ids[name] = await conversations.message(tenantID, sessionID, { value: `${word} ${name}` });
      }
      const found = async (visibility: SessionVisibility) => new Set(await messageIDs(word, { visibility }));

      expect(await found(ALL)).toEqual(new Set(Object.values(ids)));
      expect(await found({ kind: 'operator', operatorID })).toEqual(new Set([ids.listed, ids.assigned, ids.joined, ids.otherInbox]));
      expect(await found({ kind: 'pluginConnection', pluginConnectionID: connectionID })).toEqual(new Set([ids.listed, ids.assigned, ids.joined, ids.unseen]));
      expect(await found({ kind: 'pluginConnection', pluginConnectionID: otherConnectionID })).toEqual(new Set([ids.otherInbox]));
      expect(await found({ kind: 'pluginConnection', pluginConnectionID: randomUUID() })).toEqual(new Set());
    });

    it('answers the same page when its first plan overruns the budget and the search runs again on the words index', async () => {
      const word = `greve${Date.now()}`;
      const { sessionID } = await session(tenantID);
      const expected: string[] = [];
      for (let n = 0; n < 3; n += 1) expected.unshift(await conversations.message(tenantID, sessionID, { value: `${word} ${n}`, createdAt: at(40 + n) }));
      // A lock on messages holds every run of the search: the first is cancelled at its budget, the second waits for the lock.
      const blocker = dataSource.createQueryRunner();
      await blocker.connect();
      await blocker.startTransaction();
      try {
        await blocker.query('LOCK TABLE messages IN ACCESS EXCLUSIVE MODE');
        let settled = false;
        const searching = messageIDs(word).finally(() => (settled = true));
        const waitingRuns = new Set<string>();
        while (waitingRuns.size < 2 && !settled) {
          await blocker.query('SELECT pg_stat_clear_snapshot()');
          const waiting: { started: Date }[] = await blocker.query(
            `SELECT xact_start AS started FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%websearch_to_tsquery%'`,
          );
          for (const { started } of waiting) waitingRuns.add(started.toISOString());
        }
        await blocker.rollbackTransaction();
        expect(await searching).toEqual(expected);
      } finally {
        if (blocker.isTransactionActive) await blocker.rollbackTransaction();
        await blocker.release();
      }
    });

    it("never finds another tenant's messages, and reads hostile text as words or nothing, never as an error", async () => {
      const otherInbox = await conversations.inbox(otherTenantID);
      const other = await conversations.session(otherTenantID, { contactID: await conversations.contact(otherTenantID), inboxID: otherInbox });
      const theirs = await conversations.message(otherTenantID, other, { value: `segredo drop table messages or pedido a b ${HOSTILE_TEXTS.join(' ')}` });
      const { sessionID } = await session(tenantID);
      const ours = await conversations.message(tenantID, sessionID, { value: 'drop table a b' });

      expect(await messageIDs('segredo')).toEqual([]);
      expect(await messageIDs('segredo', { scope: trustedTenantScope(otherTenantID) })).toEqual([theirs]);
      for (const text of HOSTILE_TEXTS) {
        expect(await messageIDs(text), text).not.toContain(theirs);
      }
      expect(await messageIDs("a' & 'b")).toEqual([ours]);
      expect(await messageIDs('drop | table')).toEqual([ours]);
    });
  });

  describe('contacts', () => {
    it('finds contacts by a part of their name or of a handle, case-insensitively, newest first, in pages, with all their handles', async () => {
      const mark = `Zq${Date.now()}`;
      const older = await session(tenantID, { contactName: `Ana ${mark}ÉRICA` });
      const newer = await session(tenantID, { contactName: `Bia ${mark}érica` });
      const byHandle = await session(tenantID, { contactName: 'Sem nome' });
      await handle(tenantID, byHandle.contactID, `+55${mark}42`);
      await handle(tenantID, byHandle.contactID, 'bia@example.com', 'web-chat');
      await dataSource.query(`UPDATE contacts SET created_at = $2 WHERE id = $1`, [older.contactID, at(20)]);
      await dataSource.query(`UPDATE contacts SET created_at = $2 WHERE id = $1`, [newer.contactID, at(21)]);
      await dataSource.query(`UPDATE contacts SET created_at = $2 WHERE id = $1`, [byHandle.contactID, at(22)]);

      expect(await contactIDs(mark.toUpperCase())).toEqual([byHandle.contactID, newer.contactID, older.contactID]);
      expect(await contactIDs(`BIA ${mark}`)).toEqual([newer.contactID]);
      const first = await search.contacts(query(mark.toLowerCase(), { limit: 1 }));
      expect(first).toEqual([
        {
          result: {
            contactID: byHandle.contactID,
            name: 'Sem nome',
            handles: [
              { channel: 'web-chat', handle: 'bia@example.com' },
              { channel: 'whatsapp', handle: `+55${mark}42` },
            ],
            createdAt: '2026-06-01T12:00:22.000Z',
          },
          position: { createdAt: '2026-06-01T12:00:22.000000Z', contactID: byHandle.contactID },
        },
      ]);
      expect(await contactIDs(mark, { after: first[0].position, limit: 1 })).toEqual([newer.contactID]);
    });

    it('merges name and handle matches in one order across pages, a contact matched both ways once', async () => {
      const mark = `Mx${Date.now()}`;
      const contacts: string[] = [];
      for (let n = 0; n < 6; n += 1) {
        // Even ones matched by name, odd ones by a handle, the third by both; created one second apart.
        const { contactID } = await session(tenantID, { contactName: n % 2 === 0 || n === 3 ? `Cliente ${mark} ${n}` : `Cliente ${n}` });
        if (n % 2 === 1) await handle(tenantID, contactID, `+55${mark}${n}`);
        await dataSource.query(`UPDATE contacts SET created_at = $2 WHERE id = $1`, [contactID, at(30 + n)]);
        contacts.unshift(contactID);
      }

      expect(await contactIDs(mark)).toEqual(contacts);
      const pages: string[][] = [];
      let after: ContactSearchPosition | undefined;
      for (;;) {
        const page = await search.contacts(query(mark, { after, limit: 2 }));
        if (!page.length) break;
        pages.push(page.map((found) => found.result.contactID));
        after = page[page.length - 1].position;
      }
      expect(pages).toEqual([contacts.slice(0, 2), contacts.slice(2, 4), contacts.slice(4, 6)]);
    });

    it("finds a contact only through a session the viewer may see, and never another tenant's", async () => {
      const mark = `Vis${Date.now()}`;
      const listed = await session(tenantID, { contactName: `${mark} listed` });
      const unseen = await session(tenantID, { contactName: `${mark} unseen`, listed: false, operatorID: otherOperatorID });
      const otherInbox = await session(tenantID, { contactName: `${mark} other inbox`, inbox: otherInboxID });
      const otherTenantInbox = await conversations.inbox(otherTenantID);
      const theirs = await conversations.contact(otherTenantID, `${mark} theirs`);
      await conversations.session(otherTenantID, { contactID: theirs, inboxID: otherTenantInbox });
      const found = async (visibility: SessionVisibility) => new Set(await contactIDs(mark, { visibility }));

      expect(await found(ALL)).toEqual(new Set([listed.contactID, unseen.contactID, otherInbox.contactID]));
      expect(await found({ kind: 'operator', operatorID })).toEqual(new Set([listed.contactID, otherInbox.contactID]));
      expect(await found({ kind: 'pluginConnection', pluginConnectionID: otherConnectionID })).toEqual(new Set([otherInbox.contactID]));
      expect(await contactIDs(mark, { scope: trustedTenantScope(otherTenantID) })).toEqual([theirs]);
    });

    it("takes LIKE's wildcards and hostile text as plain characters, never another tenant's contacts", async () => {
      const percent = await session(tenantID, { contactName: '100% Maria_S' });
      const theirs = await conversations.contact(otherTenantID, `${HOSTILE_TEXTS.join('')} 100% Maria_S`);
      await conversations.session(otherTenantID, { contactID: theirs, inboxID: await conversations.inbox(otherTenantID) });

      expect(await contactIDs('0% M')).toEqual([percent.contactID]);
      expect(await contactIDs('a_s')).toEqual([percent.contactID]);
      expect(await contactIDs('a%s')).toEqual([]);
      for (const text of HOSTILE_TEXTS) expect(await contactIDs(text), text).not.toContain(theirs);
    });
  });
});
