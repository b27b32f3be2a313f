import { ServicesApi } from '@platform/api-client';
import { ConversationFixtures, PluginConnectionFixture, PluginFixture, singleError, withTableMissing } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';
import { queryAsSent } from '../support/sent-as-is';
import { describeStandardRefusals } from '../support/standard-refusals';

type Session = ServicesApi.components['schemas']['SessionDto'];

const minutesAgo = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 12, 0, 0) - minutes * 60_000);

describe('GET /v1/tenants/:tenantID/contacts/:contactID/sessions (operation 11)', () => {
  let platform: TestPlatform;
  let conversations: ConversationFixtures;
  let tenantID: string;
  let otherTenantID: string;
  let contactID: string;
  let ownerID: string;
  let memberID: string;
  let ownerToken: string;
  let memberToken: string;
  let outsiderToken: string;
  let plugin: PluginFixture;
  let connection: PluginConnectionFixture;
  /** Session ids by name, and the expected order of all the contact's sessions. */
  const sessions: Record<string, string> = {};
  let everyInOrder: string[];

  const list = (authorization: string, query = '', contact = contactID, tenant = tenantID) =>
    platform.api.services.GET('/v1/tenants/{tenantID}/contacts/{contactID}/sessions', {
      params: { path: { tenantID: tenant, contactID: contact }, query: queryAsSent(query) },
      headers: { authorization },
    });
  const idsOf = (body: { data: Session[] }) => body.data.map((session) => session.sessionID);

  beforeAll(async () => {
    platform = await startPlatform({ apps: ['services-api'] });
    const { fixtures } = platform;
    conversations = new ConversationFixtures(platform.dataSource);
    tenantID = await fixtures.tenant();
    otherTenantID = await fixtures.tenant();
    const owner = await fixtures.operator();
    const member = await fixtures.operator();
    const outsider = await fixtures.operator();
    ownerID = owner.operatorID;
    memberID = member.operatorID;
    await fixtures.membership(tenantID, ownerID, 'owner');
    await fixtures.membership(tenantID, memberID, 'member');
    await fixtures.membership(otherTenantID, outsider.operatorID, 'owner');
    ownerToken = `Bearer ${await platform.tokenFor(ownerID)}`;
    memberToken = `Bearer ${await platform.tokenFor(memberID)}`;
    outsiderToken = `Bearer ${await platform.tokenFor(outsider.operatorID)}`;
    plugin = await fixtures.plugin();
    connection = await fixtures.connection(tenantID, plugin.pluginID);

    contactID = await conversations.contact(tenantID, 'Maria Souza');
    const inboxID = await conversations.inbox(tenantID, { pluginConnectionID: connection.pluginConnectionID });
    const session = async (name: string, options: { listed?: boolean; operatorID?: string; participants?: string[]; createdMinutesAgo: number }) => {
      sessions[name] = await conversations.session(tenantID, {
        contactID,
        inboxID,
        listed: options.listed,
        operatorID: options.operatorID,
        participants: options.participants,
        createdAt: minutesAgo(options.createdMinutesAgo),
      });
      return sessions[name];
    };
    // Listed sessions, visible to every operator.
    const old = await session('old', { createdMinutesAgo: 600 });
    await conversations.message(tenantID, old, { createdAt: minutesAgo(590), value: 'primeira' });
    await conversations.message(tenantID, old, { createdAt: minutesAgo(300), direction: 'outbound', key: 'template', status: 3, value: { template: 'boas_vindas', vars: [1, 2] } });
    await conversations.message(tenantID, old, { createdAt: minutesAgo(400), value: 'chegou tarde, mas é mais antiga' });
    const recent = await session('recent', { createdMinutesAgo: 100, operatorID: ownerID });
    await conversations.message(tenantID, recent, { createdAt: minutesAgo(5), value: null, key: 'deleted' });
    await conversations.summary(tenantID, recent, { text: 'Cliente pediu segunda via do boleto.', sentiment: 'neutral' });
    // Never messaged: active since creation.
    await session('silent', { createdMinutesAgo: 50 });
    // Two sessions whose last messages share a time: the higher id comes first.
    for (const name of ['tieA', 'tieB']) {
      await session(name, { createdMinutesAgo: 200 });
      await conversations.message(tenantID, sessions[name], { createdAt: minutesAgo(120), value: 42 });
    }
    // Unlisted: visible to plugins, and to an operator only when assigned or a participant.
    await session('unlistedOwner', { listed: false, operatorID: ownerID, createdMinutesAgo: 30 });
    await session('unlistedMemberJoined', { listed: false, operatorID: ownerID, participants: [memberID], createdMinutesAgo: 20 });
    await session('unlistedNobody', { listed: false, createdMinutesAgo: 10 });
    await conversations.message(tenantID, sessions.unlistedNobody, { createdAt: minutesAgo(1), value: ['a', 'b'] });

    const [tieFirst, tieSecond] = [sessions.tieA, sessions.tieB].sort().reverse();
    everyInOrder = [
      sessions.unlistedNobody,
      sessions.recent,
      sessions.unlistedMemberJoined,
      sessions.unlistedOwner,
      sessions.silent,
      tieFirst,
      tieSecond,
      sessions.old,
    ];

    // Sessions of another contact and another tenant never show up.
    const otherContact = await conversations.contact(tenantID, 'João');
    await conversations.session(tenantID, { contactID: otherContact, inboxID, createdAt: minutesAgo(0) });
    const foreignContact = await conversations.contact(otherTenantID);
    await conversations.session(otherTenantID, { contactID: foreignContact, inboxID: await conversations.inbox(otherTenantID) });
  });
  afterAll(() => platform.close());

  it('lists the plugin connection of their inbox every session, most recently active first, ties by id', async () => {
    const response = await list(connection.authorization, '?perPage=50');
    expect(response.response.status).toBe(200);
    expect(idsOf(response.data!)).toEqual(everyInOrder);
    expect(response.data!.meta).toEqual({ currentPage: 1, hasMore: false, perPage: 50, totalCount: 8 });
  });

  it('lists an installed plugin every session too', async () => {
    const response = await list(plugin.authorization, '?perPage=50');
    expect(idsOf(response.data!)).toEqual(everyInOrder);
    expect(response.data!.meta.totalCount).toBe(8);
  });

  it('lists an operator the listed sessions and the unlisted ones assigned to them or joined by them', async () => {
    const owner = await list(ownerToken);
    const hiddenFromOwner = [sessions.unlistedNobody];
    expect(idsOf(owner.data!)).toEqual(everyInOrder.filter((id) => !hiddenFromOwner.includes(id)));
    expect(owner.data!.meta).toEqual({ currentPage: 1, hasMore: false, perPage: 20, totalCount: 7 });

    const member = await list(memberToken);
    const hiddenFromMember = [sessions.unlistedNobody, sessions.unlistedOwner];
    expect(idsOf(member.data!)).toEqual(everyInOrder.filter((id) => !hiddenFromMember.includes(id)));
    expect(member.data!.meta.totalCount).toBe(6);
  });

  it('carries every field, the last message (by time, then id) and the summary where one exists', async () => {
    const response = await list(ownerToken, '?perPage=50');
    const byID = new Map(response.data!.data.map((session) => [session.sessionID, session] as const));
    const lastOfOld = await platform.dataSource.query(`SELECT id FROM messages WHERE session_id = $1 AND key = 'template'`, [sessions.old]);
    expect(byID.get(sessions.old)).toEqual({
      sessionID: sessions.old,
      tenantID,
      contactID,
      inboxID: expect.any(String),
      operatorID: null,
      operatorParticipantsIDs: [],
      sessionChannel: 'whatsapp',
      sessionType: 'chat',
      sessionActive: true,
      sessionListed: true,
      sessionLastMessageID: lastOfOld[0].id,
      lastMessage: { messageDirection: 'outbound', messageKey: 'template', messageStatus: 3, messageValue: { template: 'boas_vindas', vars: [1, 2] } },
      createdAt: minutesAgo(600).toISOString(),
      updatedAt: minutesAgo(600).toISOString(),
      closedAt: null,
      manualAt: null,
      queuedAt: null,
    });
    expect(byID.get(sessions.recent)).toMatchObject({
      operatorID: ownerID,
      lastMessage: { messageDirection: 'inbound', messageKey: 'deleted', messageStatus: 0, messageValue: null },
      sessionSummary: { text: 'Cliente pediu segunda via do boleto.', sentiment: 'neutral' },
    });
    expect(byID.get(sessions.unlistedMemberJoined)).toMatchObject({ operatorParticipantsIDs: [memberID], sessionListed: false });
    expect(byID.get(sessions.silent)).toMatchObject({ sessionLastMessageID: null, lastMessage: null });
    for (const session of byID.values()) {
      if (session.sessionID !== sessions.recent) expect(session).not.toHaveProperty('sessionSummary');
    }
  });

  it('walks pages of one session to the same list as one big page, 206 until the last', async () => {
    for (const authorization of [ownerToken, memberToken, connection.authorization]) {
      const all = await list(authorization, '?perPage=50');
      const total = all.data!.meta.totalCount;
      const walked: string[] = [];
      for (let page = 1; page <= total; page += 1) {
        const response = await list(authorization, `?perPage=1&page=${page}`);
        expect(response.response.status).toBe(page === total ? 200 : 206);
        expect(response.data!.meta).toEqual({ currentPage: page, hasMore: page < total, perPage: 1, totalCount: total });
        walked.push(...idsOf(response.data!));
      }
      expect(walked).toEqual(idsOf(all.data!));
    }
    const middle = await list(connection.authorization, '?perPage=3&page=2');
    expect(middle.response.status).toBe(206);
    expect(idsOf(middle.data!)).toEqual(everyInOrder.slice(3, 6));
  });

  it('answers a page past the end empty, up to the largest page number', async () => {
    for (const page of [2, Number.MAX_SAFE_INTEGER]) {
      const response = await list(ownerToken, `?page=${page}&perPage=50`);
      expect(response.response.status).toBe(200);
      expect(response.data!).toEqual({ data: [], meta: { currentPage: page, hasMore: false, perPage: 50, totalCount: 7 } });
    }
  });

  it('answers an empty page for a contact unknown on the tenant (the operation lists no 404)', async () => {
    const foreignContact = await conversations.contact(otherTenantID);
    for (const contact of ['5f0c8a8e-3a1b-4c2d-9e8f-0a1b2c3d4e5f', foreignContact]) {
      const response = await list(ownerToken, '', contact);
      expect(response.response.status).toBe(200);
      expect(response.data!).toEqual({ data: [], meta: { currentPage: 1, hasMore: false, perPage: 20, totalCount: 0 } });
    }
  });

  it('follows a new message: the session moves to the top and totals stay exact', async () => {
    await conversations.message(tenantID, sessions.old, { value: 'voltei' });
    const response = await list(memberToken);
    expect(idsOf(response.data!)[0]).toBe(sessions.old);
    expect(response.data!.data[0].lastMessage!.messageValue).toBe('voltei');
    await platform.dataSource.query('UPDATE sessions SET listed = true WHERE id = $1', [sessions.unlistedOwner]);
    expect((await list(memberToken)).data!.meta.totalCount).toBe(7);
    await platform.dataSource.query('UPDATE sessions SET listed = false WHERE id = $1', [sessions.unlistedOwner]);
    expect((await list(memberToken)).data!.meta.totalCount).toBe(6);
  });

  describeStandardRefusals({
    method: 'GET',
    path: '/v1/tenants/{tenantID}/contacts/{contactID}/sessions',
    client: () => platform.api.services,
    tenantID: () => tenantID,
    pathParams: () => ({ contactID }),
    valid: () => ownerToken,
    outsider: async () => {
      const strangerPlugin = await platform.fixtures.plugin();
      await platform.fixtures.connection(otherTenantID, strangerPlugin.pluginID);
      const foreignConnection = await platform.fixtures.connection(otherTenantID, plugin.pluginID);
      return [outsiderToken, strangerPlugin.authorization, foreignConnection.authorization];
    },
    // An empty Authorization header, a token that is not a JWT, the right plugin with a wrong secret.
    invalid: () => ['', 'Bearer nope', `Plugin ${Buffer.from(`${plugin.pluginID}:wrong`).toString('base64')}`],
    // Operation 11 does not tell a tenant that does not exist from one the caller is not in.
    unknownTenant: 403,
  });

  describe('errors', () => {
    it('is 400 1002 naming each invalid parameter', async () => {
      const cases: [string, string, string, { field: string; received: string; allowed: string }[]][] = [
        [tenantID, 'bad', '', [{ field: 'contactID', received: 'bad', allowed: 'uuid' }]],
        [tenantID, contactID, '?perPage=51', [{ field: 'perPage', received: '51', allowed: 'integer 1-50' }]],
        [tenantID, contactID, '?page=1.5', [{ field: 'page', received: '1.5', allowed: 'integer 1-9007199254740991' }]],
      ];
      for (const [tenant, contact, query, fields] of cases) {
        const response = await list(ownerToken, query, contact, tenant);
        expect(response.response.status).toBe(400);
        expect(singleError(response.error)).toEqual({ statusCode: 400, error: 'RequestValidationError', error_code: 1002, message: 'Invalid request data.', fields });
      }
    });

    it('is 500 5999 without internals when the database fails', async () => {
      await withTableMissing(platform.dataSource, 'session_summaries', async () => {
        const response = await list(ownerToken);
        expect(response.response.status).toBe(500);
        expect(singleError(response.error)).toEqual({
          statusCode: 500,
          error: 'UnknownError',
          error_code: 5999,
          message: 'For some unknown reason your request has not succeeded.',
        });
        expect(JSON.stringify(response.error)).not.toContain('summar');
      });
    });
  });
});
