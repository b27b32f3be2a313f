import { randomUUID } from 'node:crypto';
import { singleError } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryAsSent } from '../support/sent-as-is';
import { describeStandardRefusals } from '../support/standard-refusals';
import { Channel, ConversationPlatform, createInbox, startConversationPlatform } from './conversation-platform';

type Kind = 'messages' | 'contacts';

/** Text an attacker may type: SQL quoting, tsquery operators, LIKE wildcards, a query string's own characters. */
const HOSTILE_QUERIES = ["'", "''", '&', '|', '!', ':*', '<->', '!(a', 'a:*', 'a <-> b', "x' | 'y", "'); DROP TABLE messages; --", '%', '_', '\\', '"', '-', 'or', '&q=x', '#', '+'];

/** docs/search.md: what a search finds, for whom, in which order, and what it refuses. */
describe('GET /v1/tenants/{tenantID}/search/messages and /search/contacts', () => {
  let context: ConversationPlatform;
  let inboxID: string;
  let otherInboxID: string;
  let otherTenantInboxID: string;
  const api = () => context.platform.api.services;

  const search = (kind: Kind, authorization: string, query: string, tenantID = context.tenantID) =>
    api().GET(`/v1/tenants/{tenantID}/search/${kind}`, { params: { path: { tenantID }, query: queryAsSent(query) }, headers: { authorization } });
  const q = (text: string, rest = '') => `q=${encodeURIComponent(text)}${rest}`;
  const post = (channel: Channel, inbox: string, content: string, contactHandle: string, options: { tenantID?: string; contactName?: string } = {}) =>
    api().POST('/v1/tenants/{tenantID}/inboxes/{inboxID}/messages', {
      params: { path: { tenantID: options.tenantID ?? context.tenantID, inboxID: inbox } },
      headers: { authorization: channel.authorization },
      body: { contactHandle, contactName: options.contactName, channelMessageID: randomUUID(), content },
    });
  const messageIDs = (body: unknown) => (body as { data: { messageID: string }[] }).data.map((message) => message.messageID);
  const contactIDs = (body: unknown) => (body as { data: { contactID: string }[] }).data.map((contact) => contact.contactID);
  const refused = (answer: { response: Response; error?: unknown }, fields: { field: string; received: string; allowed: string }[]) => {
    expect(answer.response.status).toBe(400);
    expect(singleError(answer.error)).toMatchObject({ error_code: 1002, fields });
  };

  beforeAll(async () => {
    context = await startConversationPlatform();
    inboxID = await createInbox(context, 'WhatsApp');
    otherInboxID = await createInbox(context, 'WhatsApp 2', context.otherChannel);
    const created = await api().POST('/v1/tenants/{tenantID}/inboxes', {
      params: { path: { tenantID: context.otherTenantID } },
      headers: { authorization: context.otherOwner.authorization },
      body: { name: 'WhatsApp', channel: 'whatsapp', pluginConnectionID: context.otherTenantChannel.pluginConnectionID },
    });
    otherTenantInboxID = created.data!.data.inboxID;
  });
  afterAll(() => context?.close());

  for (const kind of ['messages', 'contacts'] as const) {
    describeStandardRefusals({
      method: 'GET',
      path: `/v1/tenants/{tenantID}/search/${kind}`,
      client: () => api(),
      tenantID: () => context.tenantID,
      query: () => ({ q: 'pedido' }),
      valid: () => context.member.authorization,
      outsider: () => [context.otherOwner.authorization, context.otherTenantChannel.authorization],
      invalid: () => ['', 'Bearer nope'],
    });
  }

  it("finds a message by its words, newest first, page after page, for the tenant's operators and the inbox's connection", async () => {
    const word = `rastreio${Date.now()}`;
    const first = (await post(context.channel, inboxID, `Qual o ${word} do pedido?`, '+5511900000001')).data!.data.message.messageID;
    const second = (await post(context.channel, inboxID, `O ${word.toUpperCase()} não funciona`, '+5511900000001')).data!.data.message.messageID;
    await post(context.channel, inboxID, 'Outra coisa', '+5511900000001');

    const page1 = await search('messages', context.member.authorization, q(word, '&limit=1'));
    expect(page1.response.status).toBe(206);
    expect(messageIDs(page1.data)).toEqual([second]);
    expect(page1.data!.meta).toEqual({ limit: 1, nextCursor: expect.any(String) });
    const page2 = await search('messages', context.member.authorization, q(word, `&limit=1&cursor=${page1.data!.meta.nextCursor}`));
    expect(page2.response.status).toBe(200);
    expect(messageIDs(page2.data)).toEqual([first]);
    expect(page2.data!.meta.nextCursor).toBeNull();

    expect(messageIDs((await search('messages', context.channel.authorization, q(word))).data)).toEqual([second, first]);
  });

  it('finds a contact by a part of its name or handle', async () => {
    const mark = `${Date.now()}`;
    const posted = await post(context.channel, inboxID, 'Oi', `+55119${mark}`, { contactName: `Joana Prado ${mark}` });
    const contactID = posted.data!.data.session.contactID;

    const byName = await search('contacts', context.member.authorization, q('joana prado'));
    expect(byName.response.status).toBe(200);
    expect(byName.data!.data).toContainEqual({ contactID, name: `Joana Prado ${mark}`, handles: [{ channel: 'whatsapp', handle: `+55119${mark}` }], createdAt: expect.any(String) });
    expect(contactIDs((await search('contacts', context.channel.authorization, q(`119${mark}`))).data)).toEqual([contactID]);
  });

  it("never finds another tenant's words, nor what another connection's inbox received", async () => {
    const secret = `segredo${Date.now()}`;
    const theirs = await post(context.otherTenantChannel, otherTenantInboxID, `o ${secret}`, `+55219${secret.slice(7)}`, { tenantID: context.otherTenantID, contactName: secret });
    expect(theirs.response.status).toBe(201);
    const neighbour = (await post(context.otherChannel, otherInboxID, `a ${secret}`, `+55319${secret.slice(7)}`, { contactName: `${secret} vizinho` })).data!.data;

    for (const kind of ['messages', 'contacts'] as const) {
      expect((await search(kind, context.owner.authorization, q(secret))).data!.data).toHaveLength(1);
      expect((await search(kind, context.channel.authorization, q(secret))).data!.data, `${kind} of another connection's inbox`).toEqual([]);
      expect((await search(kind, context.otherChannel.authorization, q(secret))).data!.data).toHaveLength(1);
      expect((await search(kind, context.otherOwner.authorization, q(secret), context.otherTenantID)).data!.data).toHaveLength(1);
    }
    expect(messageIDs((await search('messages', context.owner.authorization, q(secret))).data)).toEqual([neighbour.message.messageID]);
    expect(contactIDs((await search('contacts', context.owner.authorization, q(secret))).data)).toEqual([neighbour.session.contactID]);
  });

  it('answers hostile query text with a page, never an error nor another tenant\'s rows', async () => {
    // The other tenant's contact is named with every hostile text, and its messages (at most 50 characters here) hold them all.
    const theirs: string[] = [];
    for (let start = 0; start < HOSTILE_QUERIES.length; start += 5) {
      const posted = await post(context.otherTenantChannel, otherTenantInboxID, HOSTILE_QUERIES.slice(start, start + 5).join(' '), '+5521900000009', {
        tenantID: context.otherTenantID,
        contactName: HOSTILE_QUERIES.join(''),
      });
      theirs.push(posted.data!.data.message.messageID, posted.data!.data.session.contactID);
    }
    // Their tenant finds them by that text: it is there to be found.
    const ownSearch = (kind: Kind, text: string) => search(kind, context.otherOwner.authorization, q(text), context.otherTenantID);
    expect(messageIDs((await ownSearch('messages', 'drop table')).data).some((id) => theirs.includes(id))).toBe(true);
    expect(contactIDs((await ownSearch('contacts', '&q=x')).data).some((id) => theirs.includes(id))).toBe(true);
    for (const kind of ['messages', 'contacts'] as const) {
      for (const text of HOSTILE_QUERIES) {
        const answer = await search(kind, context.owner.authorization, q(text));
        expect(answer.response.status, `${kind} ${text}`).toBe(200);
        const ids = kind === 'messages' ? messageIDs(answer.data) : contactIDs(answer.data);
        expect(ids.filter((id) => theirs.includes(id)), `${kind} ${text}`).toEqual([]);
      }
    }
  });

  it('is 400 1002 naming q when it is missing, empty, only spaces or too long, and naming limit or cursor when out of range or not made here', async () => {
    const allowed = 'string of 1-200 characters, not only spaces';
    const sessionID = (await post(context.channel, inboxID, 'Oi', '+5511900000077')).data!.data.session.sessionID;
    const messagesPage = await api().GET('/v1/tenants/{tenantID}/sessions/{sessionID}/messages', {
      params: { path: { tenantID: context.tenantID, sessionID }, query: { limit: '1' } },
      headers: { authorization: context.owner.authorization },
    });
    await post(context.channel, inboxID, 'Oi de novo', '+5511900000077');
    const otherListCursor = (await api().GET('/v1/tenants/{tenantID}/sessions/{sessionID}/messages', {
      params: { path: { tenantID: context.tenantID, sessionID }, query: { limit: '1' } },
      headers: { authorization: context.owner.authorization },
    })).data!.meta.nextCursor!;
    expect(messagesPage.response.status).toBe(200);

    for (const kind of ['messages', 'contacts'] as const) {
      const authorization = context.owner.authorization;
      refused(await search(kind, authorization, ''), [{ field: 'q', received: 'undefined', allowed }]);
      refused(await search(kind, authorization, 'q='), [{ field: 'q', received: '', allowed }]);
      refused(await search(kind, authorization, q('   ')), [{ field: 'q', received: '   ', allowed }]);
      refused(await search(kind, authorization, q('a'.repeat(201))), [{ field: 'q', received: expect.any(String), allowed }]);
      expect((await search(kind, authorization, q('é'.repeat(200)))).response.status).toBe(200);
      refused(await search(kind, authorization, q('pedido', '&limit=0')), [{ field: 'limit', received: '0', allowed: 'integer 1-50' }]);
      refused(await search(kind, authorization, q('pedido', '&limit=51')), [{ field: 'limit', received: '51', allowed: 'integer 1-50' }]);
      refused(await search(kind, authorization, q('pedido', `&cursor=${otherListCursor}`)), [{ field: 'cursor', received: otherListCursor, allowed: 'a cursor from meta.nextCursor of this list' }]);
    }
  });
});
