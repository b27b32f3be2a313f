import { randomBytes, randomUUID } from 'node:crypto';
import { singleError } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sentAsIs } from '../support/sent-as-is';
import { describeStandardRefusals } from '../support/standard-refusals';
import { ConversationPlatform, Operator, startConversationPlatform } from './conversation-platform';

const UNKNOWN_ID = '5f0c8a8e-3a1b-4c2d-9e8f-0a1b2c3d4e5f';

/** Every refusal of the conversation routes, through HTTP, each with its catalog error (docs/conversations.md). */
describe('conversation refusals', () => {
  let context: ConversationPlatform;
  let inboxID: string;
  let otherInboxID: string;
  let handles = 0;
  const api = () => context.platform.api.services;

  const post = (body: Record<string, unknown>, options: { inbox?: string; authorization?: string; tenantID?: string } = {}) =>
    api().POST('/v1/tenants/{tenantID}/inboxes/{inboxID}/messages', {
      params: { path: { tenantID: options.tenantID ?? context.tenantID, inboxID: options.inbox ?? inboxID } },
      headers: { authorization: options.authorization ?? context.channel.authorization },
      ...sentAsIs({ contactHandle: `+55119${++handles}`, channelMessageID: randomUUID(), content: 'Oi', ...body }),
    });
  /** A new queued session of a new contact on the inbox. */
  const queued = async () => (await post({})).data!.data.session.sessionID;
  const transition = (sessionID: string, action: 'take' | 'join' | 'close', operator: Operator) =>
    api().POST(`/v1/tenants/{tenantID}/sessions/{sessionID}/${action}`, { params: { path: { tenantID: context.tenantID, sessionID } }, headers: { authorization: operator.authorization } });
  const markRead = (sessionID: string, operator: Operator) =>
    api().POST('/v1/tenants/{tenantID}/sessions/{sessionID}/read', { params: { path: { tenantID: context.tenantID, sessionID } }, headers: { authorization: operator.authorization } });
  const handOver = (sessionID: string, action: 'assign' | 'transfer', operator: Operator, operatorID: string) =>
    api().POST(`/v1/tenants/{tenantID}/sessions/{sessionID}/${action}`, {
      params: { path: { tenantID: context.tenantID, sessionID } },
      headers: { authorization: operator.authorization },
      body: { operatorID },
    });
  const reply = (sessionID: string, operator: Operator, content = 'Olá') =>
    api().POST('/v1/tenants/{tenantID}/sessions/{sessionID}/messages', {
      params: { path: { tenantID: context.tenantID, sessionID } },
      headers: { authorization: operator.authorization },
      body: { content },
    });
  const report = (messageID: string, deliveryStatus: string, authorization = context.channel.authorization) =>
    api().PUT('/v1/tenants/{tenantID}/messages/{messageID}/delivery-status', {
      params: { path: { tenantID: context.tenantID, messageID } },
      headers: { authorization },
      ...sentAsIs({ deliveryStatus }),
    });
  const refused = (answer: { response: Response; error?: unknown }, status: number, code: number) => {
    expect(answer.response.status).toBe(status);
    expect(singleError(answer.error).error_code).toBe(code);
  };

  beforeAll(async () => {
    context = await startConversationPlatform();
    const create = (pluginConnectionID: string) =>
      api().POST('/v1/tenants/{tenantID}/inboxes', {
        params: { path: { tenantID: context.tenantID } },
        headers: { authorization: context.owner.authorization },
        body: { name: 'WhatsApp', channel: 'whatsapp', pluginConnectionID },
      });
    inboxID = (await create(context.channel.pluginConnectionID)).data!.data.inboxID;
    otherInboxID = (await create(context.otherChannel.pluginConnectionID)).data!.data.inboxID;
  });
  afterAll(() => context?.close());

  describe('inboxes', () => {
    it('lets owners only create one, on a live connection of the tenant', async () => {
      const create = (authorization: string, pluginConnectionID: string) =>
        api().POST('/v1/tenants/{tenantID}/inboxes', {
          params: { path: { tenantID: context.tenantID } },
          headers: { authorization },
          body: { name: 'Web chat', channel: 'web-chat', pluginConnectionID },
        });
      refused(await create(context.member.authorization, context.channel.pluginConnectionID), 403, 1004);
      refused(await create(context.owner.authorization, context.otherTenantChannel.pluginConnectionID), 404, 1054);
      refused(await create(context.owner.authorization, UNKNOWN_ID), 404, 1054);
      const badChannel = await api().POST('/v1/tenants/{tenantID}/inboxes', {
        params: { path: { tenantID: context.tenantID } },
        headers: { authorization: context.owner.authorization },
        ...sentAsIs({ name: '', channel: 'Web Chat', pluginConnectionID: context.channel.pluginConnectionID }),
      });
      expect(badChannel.response.status).toBe(400);
      expect(singleError(badChannel.error).fields).toEqual([
        { field: 'name', received: '', allowed: 'string of 1-100 characters' },
        expect.objectContaining({ field: 'channel', received: 'Web Chat' }),
      ]);
    });

    it('renames and removes only a live inbox, and refuses removal while a session is open', async () => {
      const path = (id: string) => ({ params: { path: { tenantID: context.tenantID, inboxID: id } }, headers: { authorization: context.owner.authorization } });
      refused(await api().PATCH('/v1/tenants/{tenantID}/inboxes/{inboxID}', { ...path(UNKNOWN_ID), body: { name: 'x' } }), 404, 1940);
      const made = await api().POST('/v1/tenants/{tenantID}/inboxes', {
        params: { path: { tenantID: context.tenantID } },
        headers: { authorization: context.owner.authorization },
        body: { name: 'Temporary', channel: 'whatsapp', pluginConnectionID: context.channel.pluginConnectionID },
      });
      const temporary = made.data!.data.inboxID;
      expect((await api().PATCH('/v1/tenants/{tenantID}/inboxes/{inboxID}', { ...path(temporary), body: { name: 'Renamed' } })).data!.data.name).toBe('Renamed');
      const { session } = (await post({}, { inbox: temporary })).data!.data;
      refused(await api().DELETE('/v1/tenants/{tenantID}/inboxes/{inboxID}', path(temporary)), 409, 1941);
      await transition(session.sessionID, 'close', context.owner);
      expect((await api().DELETE('/v1/tenants/{tenantID}/inboxes/{inboxID}', path(temporary))).response.status).toBe(204);
      refused(await api().DELETE('/v1/tenants/{tenantID}/inboxes/{inboxID}', path(temporary)), 404, 1940);
      refused(await post({}, { inbox: temporary }), 404, 1940);
      // Its closed session stays readable.
      expect((await api().GET('/v1/tenants/{tenantID}/sessions/{sessionID}', { params: { path: { tenantID: context.tenantID, sessionID: session.sessionID } }, headers: { authorization: context.owner.authorization } })).data!.data.sessionState).toBe('closed');
    });
  });

  describe('messages in', () => {
    it("refuses a connection another connection's inbox, and content over the cap", async () => {
      refused(await post({}, { inbox: otherInboxID }), 404, 1940);
      refused(await post({}, { inbox: UNKNOWN_ID }), 404, 1940);
      refused(await post({}, { authorization: context.otherTenantChannel.authorization }), 403, 1004);
      refused(await post({ content: 'x'.repeat(51) }), 422, 1948);
      expect((await post({ content: '😀'.repeat(50) })).response.status).toBe(201);
    });

    it('refuses hostile text as every route does', async () => {
      const answer = await post({ content: 'a\u0000b' });
      expect(answer.response.status).toBe(400);
      expect(singleError(answer.error).fields).toEqual([expect.objectContaining({ field: 'content' })]);
    });

    it('stores one message for concurrent posts of one channel message id', async () => {
      const body = { contactHandle: '+5511900000001', channelMessageID: `wamid.${randomUUID()}`, content: 'Só uma vez' };
      const answers = await Promise.all(Array.from({ length: 6 }, () => post(body)));
      const statuses = answers.map((answer) => answer.response.status).sort();
      expect(statuses).toEqual([200, 200, 200, 200, 200, 201]);
      expect(new Set(answers.map((answer) => answer.data!.data.message.messageID)).size).toBe(1);
      const sessionID = answers[0].data!.data.session.sessionID;
      const page = await api().GET('/v1/tenants/{tenantID}/sessions/{sessionID}/messages', {
        params: { path: { tenantID: context.tenantID, sessionID }, query: {} },
        headers: { authorization: context.channel.authorization },
      });
      expect(page.data!.data).toHaveLength(1);
    });
  });

  it("opens one session for a new contact's first messages posted at once", async () => {
    const contactHandle = `+55118${Date.now().toString().slice(-8)}`;
    const answers = await Promise.all(Array.from({ length: 4 }, (_, index) => post({ contactHandle, content: `primeira ${index}` })));
    expect(answers.map((answer) => answer.response.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(answers.map((answer) => answer.data!.data.session.sessionID)).size).toBe(1);
    expect(new Set(answers.map((answer) => answer.data!.data.session.contactID)).size).toBe(1);
  });

  describe('sessions', () => {
    it('hides a session from operators who may not see it, and from another connection', async () => {
      const sessionID = await queued();
      await context.platform.dataSource.query('UPDATE sessions SET listed = false WHERE id = $1', [sessionID]);
      refused(await transition(sessionID, 'take', context.member), 404, 1060);
      refused(await reply(sessionID, context.member), 404, 1060);
      refused(await markRead(sessionID, context.member), 404, 1060);
      refused(await api().GET('/v1/tenants/{tenantID}/sessions/{sessionID}', { params: { path: { tenantID: context.tenantID, sessionID } }, headers: { authorization: context.otherChannel.authorization } }), 404, 1060);
      refused(await transition(UNKNOWN_ID, 'take', context.member), 404, 1060);
      // An owner still reaches it to assign it.
      expect((await handOver(sessionID, 'assign', context.owner, context.member.operatorID)).data!.data.operatorID).toBe(context.member.operatorID);
    });

    it("shows a connection none of another connection's sessions through a contact they share", async () => {
      const contactHandle = '+5511900000003';
      const theirs = (await post({ contactHandle, content: 'segredo' })).data!.data.session;
      // The other connection learns the contact's id by posting the same handle to its own inbox.
      const mine = (await post({ contactHandle, content: 'oi' }, { inbox: otherInboxID, authorization: context.otherChannel.authorization })).data!.data.session;
      expect(mine.contactID).toBe(theirs.contactID);
      const listed = (authorization: string) =>
        api().GET('/v1/tenants/{tenantID}/contacts/{contactID}/sessions', {
          params: { path: { tenantID: context.tenantID, contactID: mine.contactID }, query: {} },
          headers: { authorization },
        });
      const seenByOther = await listed(context.otherChannel.authorization);
      expect(seenByOther.data!.data.map((session) => session.sessionID)).toEqual([mine.sessionID]);
      expect(seenByOther.data!.meta.totalCount).toBe(1);
      refused(await api().GET('/v1/tenants/{tenantID}/sessions/{sessionID}', { params: { path: { tenantID: context.tenantID, sessionID: theirs.sessionID } }, headers: { authorization: context.otherChannel.authorization } }), 404, 1060);
      const seenByOwn = await listed(context.channel.authorization);
      expect(seenByOwn.data!.data.map((session) => session.sessionID)).toEqual([theirs.sessionID]);
      // An operator of the tenant sees both.
      expect((await listed(context.member.authorization)).data!.meta.totalCount).toBe(2);
    });

    it('refuses each transition from the wrong state or by the wrong operator', async () => {
      const sessionID = await queued();
      refused(await handOver(sessionID, 'transfer', context.owner, context.member.operatorID), 409, 1944);
      refused(await handOver(sessionID, 'assign', context.member, context.member.operatorID), 403, 1004);
      refused(await handOver(sessionID, 'assign', context.owner, context.otherOwner.operatorID), 404, 1990);
      expect((await transition(sessionID, 'take', context.member)).response.status).toBe(200);
      refused(await transition(sessionID, 'take', context.otherMember), 409, 1943);
      refused(await handOver(sessionID, 'assign', context.owner, context.otherMember.operatorID), 409, 1943);
      refused(await handOver(sessionID, 'transfer', context.otherMember, context.otherMember.operatorID), 403, 1004);
      refused(await handOver(sessionID, 'transfer', context.member, context.member.operatorID), 409, 1945);
      refused(await transition(sessionID, 'join', context.member), 409, 1945);
      refused(await transition(sessionID, 'close', context.otherMember), 403, 1004);

      const joined = await transition(sessionID, 'join', context.otherMember);
      expect(joined.data!.data.operatorParticipantsIDs).toEqual([context.otherMember.operatorID]);
      refused(await transition(sessionID, 'join', context.otherMember), 409, 1945);
      const transferred = await handOver(sessionID, 'transfer', context.member, context.otherMember.operatorID);
      expect(transferred.data!.data).toMatchObject({ operatorID: context.otherMember.operatorID, operatorParticipantsIDs: [context.member.operatorID] });

      expect((await transition(sessionID, 'close', context.otherMember)).response.status).toBe(200);
      for (const action of ['take', 'join', 'close'] as const) refused(await transition(sessionID, action, context.owner), 409, 1942);
      refused(await handOver(sessionID, 'transfer', context.owner, context.member.operatorID), 409, 1942);
      refused(await reply(sessionID, context.otherMember), 409, 1942);
    });

    it('refuses a reply over the cap, and replays a reply sent again with its Idempotency-Key', async () => {
      const sessionID = await queued();
      refused(await reply(sessionID, context.member, 'x'.repeat(51)), 422, 1948);
      const key = randomUUID();
      const send = () =>
        api().POST('/v1/tenants/{tenantID}/sessions/{sessionID}/messages', {
          params: { path: { tenantID: context.tenantID, sessionID } },
          headers: { authorization: context.member.authorization, 'idempotency-key': key },
          body: { content: 'Uma vez' },
        });
      const first = await send();
      const second = await send();
      expect(second.response.headers.get('idempotent-replayed')).toBe('true');
      expect(second.data!.data.messageID).toBe(first.data!.data.messageID);
    });

    it('pages messages by keyset, newest first, and refuses a cursor it did not make', async () => {
      const contactHandle = '+5511900000002';
      const ids: string[] = [];
      for (let index = 0; index < 5; index += 1) ids.push((await post({ contactHandle, content: `m${index}` })).data!.data.message.messageID);
      const sessionID = (await post({ contactHandle, channelMessageID: randomUUID(), content: 'm5' })).data!.data.session.sessionID;
      const page = (cursor?: string) =>
        api().GET('/v1/tenants/{tenantID}/sessions/{sessionID}/messages', {
          params: { path: { tenantID: context.tenantID, sessionID }, query: { limit: '2', ...(cursor ? { cursor } : {}) } },
          headers: { authorization: context.member.authorization },
        });
      const seen: string[] = [];
      const statuses: number[] = [];
      let cursor: string | undefined;
      do {
        const answer = await page(cursor);
        statuses.push(answer.response.status);
        seen.push(...answer.data!.data.map((message) => message.messageValue as string));
        cursor = answer.data!.meta.nextCursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual(['m5', 'm4', 'm3', 'm2', 'm1', 'm0']);
      expect(statuses).toEqual([206, 206, 200]);
      const bad = await page('bm90LWEtY3Vyc29y');
      expect(bad.response.status).toBe(400);
      expect(singleError(bad.error).fields).toEqual([expect.objectContaining({ field: 'cursor' })]);
    });

    it('refuses a cursor it did not make, whatever it names, and still pages to the end with its own', async () => {
      const contactHandle = '+5511900000004';
      for (let index = 0; index < 3; index += 1) await post({ contactHandle, content: `c${index}` });
      const sessionID = (await post({ contactHandle, content: 'c3' })).data!.data.session.sessionID;
      const page = (cursor?: string) =>
        api().GET('/v1/tenants/{tenantID}/sessions/{sessionID}/messages', {
          params: { path: { tenantID: context.tenantID, sessionID }, query: { limit: '1', ...(cursor ? { cursor } : {}) } },
          headers: { authorization: context.member.authorization },
        });
      const first = await page();
      const made = first.data!.meta.nextCursor!;
      const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
      const [position, mac] = made.split('.');
      const flipped = `${mac.slice(0, -2)}${mac.at(-2) === 'A' ? 'B' : 'A'}${mac.at(-1)}`;
      const forged = [
        // An impossible date, and year 0000, as a position alone or with a MAC this API did not make.
        base64url(`2026-02-30T12:00:00.000000Z_${randomUUID()}`),
        base64url(`0000-01-01T00:00:00.000000Z_${randomUUID()}`),
        `${base64url(`2026-02-30T12:00:00.000000Z_${randomUUID()}`)}.${randomBytes(32).toString('base64url')}`,
        // A real date and any id, well formed.
        base64url(`2030-01-01T00:00:00.000000Z_${randomUUID()}`),
        `${base64url(`2030-01-01T00:00:00.000000Z_${randomUUID()}`)}.${mac}`,
        // This API's cursor, its MAC or its position altered.
        `${position}.${flipped}`,
        `${base64url(`2030-01-01T00:00:00.000000Z_${randomUUID()}`)}.${mac}`,
        position,
      ];
      for (const cursor of forged) {
        const answer = await page(cursor);
        expect(answer.response.status, cursor).toBe(400);
        expect(singleError(answer.error)).toMatchObject({ error_code: 1002, fields: [{ field: 'cursor', received: cursor, allowed: 'a cursor from meta.nextCursor of this list' }] });
      }
      const seen = first.data!.data.map((message) => message.messageValue);
      let cursor: string | null = made;
      while (cursor) {
        const answer = await page(cursor);
        seen.push(...answer.data!.data.map((message) => message.messageValue));
        cursor = answer.data!.meta.nextCursor;
      }
      expect(seen).toEqual(['c3', 'c2', 'c1', 'c0']);
    });
  });

  describe('delivery status', () => {
    it('moves forward only, repeats answer as is, and only for the connection of an outbound message', async () => {
      const { session, message: inbound } = (await post({})).data!.data;
      const outbound = (await reply(session.sessionID, context.member)).data!.data;
      refused(await report(inbound.messageID, 'sent'), 404, 1946);
      refused(await report(outbound.messageID, 'sent', context.otherChannel.authorization), 404, 1946);
      refused(await report(UNKNOWN_ID, 'sent'), 404, 1946);
      expect((await report(outbound.messageID, 'sent')).data!.data.deliveryStatus).toBe('sent');
      expect((await report(outbound.messageID, 'read')).data!.data.deliveryStatus).toBe('read');
      expect((await report(outbound.messageID, 'read')).data!.data).toMatchObject({ deliveryStatus: 'read', messageStatus: 3 });
      refused(await report(outbound.messageID, 'delivered'), 409, 1947);
      refused(await report(outbound.messageID, 'failed'), 409, 1947);
      const invalid = await report(outbound.messageID, 'pending');
      expect(invalid.response.status).toBe(400);
    });
  });

  describeStandardRefusals({
    method: 'POST',
    path: '/v1/tenants/{tenantID}/inboxes/{inboxID}/messages',
    client: () => context.platform.api.services,
    tenantID: () => context.tenantID,
    pathParams: () => ({ inboxID }),
    body: () => ({ contactHandle: '+5511900000099', channelMessageID: randomUUID(), content: 'Oi' }),
    valid: () => context.channel.authorization,
    outsider: () => context.otherTenantChannel.authorization,
    invalid: () => [context.member.authorization],
  });

  describeStandardRefusals({
    method: 'POST',
    path: '/v1/tenants/{tenantID}/inboxes',
    client: () => context.platform.api.services,
    tenantID: () => context.tenantID,
    body: () => ({ name: 'Inbox', channel: 'whatsapp', pluginConnectionID: context.channel.pluginConnectionID }),
    valid: () => context.owner.authorization,
    outsider: () => context.otherOwner.authorization,
    wrongRole: () => context.member.authorization,
    invalid: () => [context.channel.authorization],
  });

  describeStandardRefusals({
    method: 'POST',
    path: '/v1/tenants/{tenantID}/sessions/{sessionID}/take',
    client: () => context.platform.api.services,
    tenantID: () => context.tenantID,
    pathParams: async () => ({ sessionID: await queued() }),
    valid: () => context.member.authorization,
    outsider: () => context.otherOwner.authorization,
    invalid: () => [context.channel.authorization],
  });
});
