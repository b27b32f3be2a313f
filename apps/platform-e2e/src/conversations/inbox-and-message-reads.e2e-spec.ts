import { randomUUID } from 'node:crypto';
import { ConversationFixtures, singleError } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeStandardRefusals } from '../support/standard-refusals';
import { ConversationPlatform, startConversationPlatform } from './conversation-platform';

/**
 * One inbox and one message, through HTTP (docs/conversations.md#routes):
 * each for whoever may use the inbox or see the message's session, and the
 * same 404 as a missing one for anyone else, another tenant included.
 */
describe('GET /v1/tenants/:tenantID/inboxes/:inboxID and /messages/:messageID', () => {
  let context: ConversationPlatform;
  let inboxID: string;
  let messageID: string;
  let unlistedMessageID: string;
  const api = () => context.platform.api.services;

  const inbox = (authorization: string, id = inboxID, tenantID = context.tenantID) =>
    api().GET('/v1/tenants/{tenantID}/inboxes/{inboxID}', { params: { path: { tenantID, inboxID: id } }, headers: { authorization } });
  const message = (authorization: string, id = messageID, tenantID = context.tenantID) =>
    api().GET('/v1/tenants/{tenantID}/messages/{messageID}', { params: { path: { tenantID, messageID: id } }, headers: { authorization } });
  const refused = (answer: { response: Response; error?: unknown }, status: number, code: number) => {
    expect(answer.response.status).toBe(status);
    expect(singleError(answer.error).error_code).toBe(code);
  };

  beforeAll(async () => {
    context = await startConversationPlatform();
    inboxID = (
      await api().POST('/v1/tenants/{tenantID}/inboxes', {
        params: { path: { tenantID: context.tenantID } },
        headers: { authorization: context.owner.authorization },
        body: { name: 'WhatsApp', channel: 'whatsapp', pluginConnectionID: context.channel.pluginConnectionID },
      })
    ).data!.data.inboxID;
    messageID = (
      await api().POST('/v1/tenants/{tenantID}/inboxes/{inboxID}/messages', {
        params: { path: { tenantID: context.tenantID, inboxID } },
        headers: { authorization: context.channel.authorization },
        body: { contactHandle: '+5511987650001', channelMessageID: randomUUID(), content: 'Oi' },
      })
    ).data!.data.message.messageID;
    // A message of the other member's unlisted session, which the member may not see (made directly: no route unlists one).
    const conversations = new ConversationFixtures(context.platform.dataSource);
    const unlisted = await conversations.session(context.tenantID, {
      contactID: await conversations.contact(context.tenantID),
      inboxID,
      listed: false,
      operatorID: context.otherMember.operatorID,
    });
    unlistedMessageID = await conversations.message(context.tenantID, unlisted, { value: 'Segredo' });
  });
  afterAll(() => context?.close());

  it('answers an inbox as the list shows it, to operators and to its own connection', async () => {
    const listed = await api().GET('/v1/tenants/{tenantID}/inboxes', { params: { path: { tenantID: context.tenantID } }, headers: { authorization: context.member.authorization } });
    const expected = listed.data!.data.find((each) => each.inboxID === inboxID);
    for (const authorization of [context.member.authorization, context.owner.authorization, context.channel.authorization]) {
      const answer = await inbox(authorization);
      expect(answer.response.status).toBe(200);
      expect(answer.data!.data).toEqual(expected);
    }
  });

  it("answers another connection's inbox, an unknown one, another tenant's and a removed one as 404 1940", async () => {
    refused(await inbox(context.otherChannel.authorization), 404, 1940);
    refused(await inbox(context.member.authorization, randomUUID()), 404, 1940);
    refused(await inbox(context.otherOwner.authorization, inboxID, context.otherTenantID), 404, 1940);
    const removable = (
      await api().POST('/v1/tenants/{tenantID}/inboxes', {
        params: { path: { tenantID: context.tenantID } },
        headers: { authorization: context.owner.authorization },
        body: { name: 'Temporary', channel: 'whatsapp', pluginConnectionID: context.channel.pluginConnectionID },
      })
    ).data!.data.inboxID;
    await api().DELETE('/v1/tenants/{tenantID}/inboxes/{inboxID}', { params: { path: { tenantID: context.tenantID, inboxID: removable } }, headers: { authorization: context.owner.authorization } });
    refused(await inbox(context.member.authorization, removable), 404, 1940);
  });

  it("answers a message as its session's messages page shows it, to whoever may see the session", async () => {
    const page = await api().GET('/v1/tenants/{tenantID}/sessions/{sessionID}/messages', {
      params: { path: { tenantID: context.tenantID, sessionID: (await message(context.member.authorization)).data!.data.sessionID } },
      headers: { authorization: context.member.authorization },
    });
    for (const authorization of [context.member.authorization, context.channel.authorization]) {
      const answer = await message(authorization);
      expect(answer.response.status).toBe(200);
      expect(answer.data!.data).toEqual(page.data!.data[0]);
    }
    expect((await message(context.otherMember.authorization, unlistedMessageID)).data!.data).toMatchObject({ messageID: unlistedMessageID, messageValue: 'Segredo' });
    expect((await message(context.channel.authorization, unlistedMessageID)).response.status).toBe(200);
  });

  it("answers a message of a session one may not see exactly as a missing one: 404 1946, another tenant's included", async () => {
    const missing = await message(context.member.authorization, randomUUID());
    refused(missing, 404, 1946);
    const unseen = await message(context.member.authorization, unlistedMessageID);
    expect([unseen.response.status, unseen.error]).toEqual([missing.response.status, missing.error]);
    refused(await message(context.otherChannel.authorization), 404, 1946);
    refused(await message(context.otherOwner.authorization, messageID, context.otherTenantID), 404, 1946);
    refused(await message(context.otherTenantChannel.authorization, messageID, context.otherTenantID), 404, 1946);
  });

  describeStandardRefusals({
    method: 'GET',
    path: '/v1/tenants/{tenantID}/inboxes/{inboxID}',
    client: () => context.platform.api.services,
    tenantID: () => context.tenantID,
    pathParams: () => ({ inboxID }),
    valid: () => context.member.authorization,
    outsider: () => [context.otherOwner.authorization, context.otherTenantChannel.authorization],
  });

  describeStandardRefusals({
    method: 'GET',
    path: '/v1/tenants/{tenantID}/messages/{messageID}',
    client: () => context.platform.api.services,
    tenantID: () => context.tenantID,
    pathParams: () => ({ messageID }),
    valid: () => context.member.authorization,
    outsider: () => [context.otherOwner.authorization, context.otherTenantChannel.authorization],
  });
});
