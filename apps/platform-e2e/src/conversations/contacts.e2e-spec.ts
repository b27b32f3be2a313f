import { randomUUID } from 'node:crypto';
import { ServicesApi } from '@platform/api-client';
import { singleError } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryAsSent } from '../support/sent-as-is';
import { describeStandardRefusals } from '../support/standard-refusals';
import { Channel, ConversationPlatform, startConversationPlatform } from './conversation-platform';

type Contact = ServicesApi.components['schemas']['ContactDto'];

/**
 * A tenant's contacts through HTTP (docs/conversations.md#contacts): newest
 * first by keyset, found by handle, every one for operators and a plugin
 * connection's own only, nothing of another tenant's.
 */
describe('GET /v1/tenants/:tenantID/contacts', () => {
  let context: ConversationPlatform;
  /** Contact ids by handle, oldest first. */
  const contacts: { handle: string; contactID: string }[] = [];
  const api = () => context.platform.api.services;

  const list = (authorization: string, query = '', tenantID = context.tenantID) =>
    api().GET('/v1/tenants/{tenantID}/contacts', { params: { path: { tenantID }, query: queryAsSent(query) }, headers: { authorization } });
  const idsOf = (answer: { data?: { data: Contact[] } }) => answer.data!.data.map((contact) => contact.contactID);
  const newestFirst = (of = contacts) => [...of].reverse().map((contact) => contact.contactID);

  beforeAll(async () => {
    context = await startConversationPlatform();
    const inboxOf = async (channel: Channel, tenantID = context.tenantID, owner = context.owner) =>
      (
        await api().POST('/v1/tenants/{tenantID}/inboxes', {
          params: { path: { tenantID } },
          headers: { authorization: owner.authorization },
          body: { name: 'WhatsApp', channel: 'whatsapp', pluginConnectionID: channel.pluginConnectionID },
        })
      ).data!.data.inboxID;
    const post = async (channel: Channel, inboxID: string, contactHandle: string, tenantID = context.tenantID) =>
      (
        await api().POST('/v1/tenants/{tenantID}/inboxes/{inboxID}/messages', {
          params: { path: { tenantID, inboxID } },
          headers: { authorization: channel.authorization },
          body: { contactHandle, contactName: `Contato ${contactHandle}`, channelMessageID: randomUUID(), content: 'Oi' },
        })
      ).data!.data.session.contactID;
    const inboxID = await inboxOf(context.channel);
    const otherInboxID = await inboxOf(context.otherChannel);
    for (const handle of ['+5511911110001', '+5511911110002', '+5511911110003']) contacts.push({ handle, contactID: await post(context.channel, inboxID, handle) });
    contacts.push({ handle: '+5511911110004', contactID: await post(context.otherChannel, otherInboxID, '+5511911110004') });
    // The same phone number in another tenant: another contact, never listed here.
    await post(context.otherTenantChannel, await inboxOf(context.otherTenantChannel, context.otherTenantID, context.otherOwner), '+5511911110001', context.otherTenantID);
  });
  afterAll(() => context?.close());

  it('lists every contact of the tenant newest first for an operator, with its handles', async () => {
    const answer = await list(context.member.authorization);
    expect(answer.response.status).toBe(200);
    expect(idsOf(answer)).toEqual(newestFirst());
    expect(answer.data!.data[3]).toEqual({
      contactID: contacts[0].contactID,
      name: 'Contato +5511911110001',
      handles: [{ channel: 'whatsapp', handle: '+5511911110001' }],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(answer.data!.meta).toEqual({ limit: 50, nextCursor: null });
  });

  it('pages by keyset: 206 with a cursor while more follow, 200 and null on the last page', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(context.owner.authorization, cursor ? `limit=3&cursor=${cursor}` : 'limit=3');
      seen.push(...idsOf(page));
      cursor = page.data!.meta.nextCursor;
      expect(page.response.status).toBe(cursor === null ? 200 : 206);
    } while (cursor !== null);
    expect(seen).toEqual(newestFirst());
  });

  it('finds a contact by its exact handle', async () => {
    expect(idsOf(await list(context.member.authorization, 'handle=%2B5511911110002'))).toEqual([contacts[1].contactID]);
    expect(idsOf(await list(context.member.authorization, 'handle=5511911110002'))).toEqual([]);
  });

  it('lists a plugin connection only the contacts with a session on its own inboxes', async () => {
    expect(idsOf(await list(context.channel.authorization))).toEqual(newestFirst(contacts.slice(0, 3)));
    expect(idsOf(await list(context.otherChannel.authorization))).toEqual([contacts[3].contactID]);
    expect(idsOf(await list(context.otherChannel.authorization, 'handle=%2B5511911110001'))).toEqual([]);
  });

  it("shows another tenant only its own contacts, the same phone number included", async () => {
    const theirs = await list(context.otherOwner.authorization, '', context.otherTenantID);
    expect(theirs.data!.data).toHaveLength(1);
    expect(idsOf(theirs)).not.toContain(contacts[0].contactID);
  });

  it('refuses a page size out of 1-100, an empty handle and a cursor it did not make, naming the parameter', async () => {
    const fieldOf = async (query: string) => {
      const answer = await list(context.member.authorization, query);
      expect(answer.response.status).toBe(400);
      expect(singleError(answer.error).error_code).toBe(1002);
      return (singleError(answer.error).fields ?? [])[0];
    };
    expect(await fieldOf('limit=0')).toMatchObject({ field: 'limit' });
    expect(await fieldOf('limit=101')).toMatchObject({ field: 'limit' });
    expect(await fieldOf('handle=')).toMatchObject({ field: 'handle' });
    const cursor = (await list(context.member.authorization, 'limit=1')).data!.meta.nextCursor!;
    expect(await fieldOf(`cursor=${cursor.startsWith('M') ? 'N' : 'M'}${cursor.slice(1)}`)).toMatchObject({ field: 'cursor' });
  });

  describeStandardRefusals({
    method: 'GET',
    path: '/v1/tenants/{tenantID}/contacts',
    client: () => context.platform.api.services,
    tenantID: () => context.tenantID,
    valid: () => context.member.authorization,
    outsider: () => [context.otherOwner.authorization, context.otherTenantChannel.authorization],
  });
});
