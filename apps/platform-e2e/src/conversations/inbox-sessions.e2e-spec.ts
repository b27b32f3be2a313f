import { randomUUID } from 'node:crypto';
import { ServicesApi } from '@platform/api-client';
import { ConversationFixtures, singleError } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryAsSent } from '../support/sent-as-is';
import { describeStandardRefusals } from '../support/standard-refusals';
import { ConversationPlatform, Operator, startConversationPlatform } from './conversation-platform';

type Session = ServicesApi.components['schemas']['ConversationSessionDto'];

/**
 * An inbox's sessions as an operator's queue, through HTTP
 * (docs/conversations.md#reading): most recently active first, filtered by
 * state and assignee, keyset-paged, with its counts, each caller seeing what
 * operation 11's rule shows them, and nothing of another inbox or tenant.
 */
describe('GET /v1/tenants/:tenantID/inboxes/:inboxID/sessions and session-counts', () => {
  let context: ConversationPlatform;
  let inboxID: string;
  let handles = 0;
  /** In the order of their last activity, most recent first. */
  const ids = { closed: '', taken: '', queued: '', unlistedOfOther: '' };
  const api = () => context.platform.api.services;

  const list = (authorization: string, query = '', options: { inbox?: string; tenantID?: string } = {}) =>
    api().GET('/v1/tenants/{tenantID}/inboxes/{inboxID}/sessions', {
      params: { path: { tenantID: options.tenantID ?? context.tenantID, inboxID: options.inbox ?? inboxID }, query: queryAsSent(query) },
      headers: { authorization },
    });
  const counts = (authorization: string, options: { inbox?: string; tenantID?: string } = {}) =>
    api().GET('/v1/tenants/{tenantID}/inboxes/{inboxID}/session-counts', {
      params: { path: { tenantID: options.tenantID ?? context.tenantID, inboxID: options.inbox ?? inboxID } },
      headers: { authorization },
    });
  const idsOf = (answer: { data?: { data: Session[] } }) => answer.data!.data.map((session) => session.sessionID);
  const inbound = async () =>
    (
      await api().POST('/v1/tenants/{tenantID}/inboxes/{inboxID}/messages', {
        params: { path: { tenantID: context.tenantID, inboxID } },
        headers: { authorization: context.channel.authorization },
        body: { contactHandle: `+55118${++handles}`, channelMessageID: randomUUID(), content: 'Oi' },
      })
    ).data!.data.session.sessionID;
  const act = (sessionID: string, action: 'take' | 'close', operator: Operator) =>
    api().POST(`/v1/tenants/{tenantID}/sessions/{sessionID}/${action}`, { params: { path: { tenantID: context.tenantID, sessionID } }, headers: { authorization: operator.authorization } });
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
    // An unlisted session of the other member, which the member may not see (made directly: no route unlists one).
    const conversations = new ConversationFixtures(context.platform.dataSource);
    ids.unlistedOfOther = await conversations.session(context.tenantID, {
      contactID: await conversations.contact(context.tenantID),
      inboxID,
      listed: false,
      operatorID: context.otherMember.operatorID,
      createdAt: new Date(Date.now() - 3_600_000),
    });
    // Opened in this order; then a take and a close move two of them to the top.
    ids.closed = await inbound();
    ids.taken = await inbound();
    ids.queued = await inbound();
    expect((await act(ids.taken, 'take', context.member)).response.status).toBe(200);
    expect((await act(ids.closed, 'close', context.owner)).response.status).toBe(200);
  });
  afterAll(() => context?.close());

  it('lists the most recently active first, a change of state counting as activity, in the shape of a session read', async () => {
    const answer = await list(context.member.authorization);
    expect(answer.response.status).toBe(200);
    expect(idsOf(answer)).toEqual([ids.closed, ids.taken, ids.queued]);
    expect(answer.data!.data.map((session) => session.sessionState)).toEqual(['closed', 'assigned', 'queued']);
    expect(answer.data!.meta).toEqual({ limit: 50, nextCursor: null });
    const read = await api().GET('/v1/tenants/{tenantID}/sessions/{sessionID}', {
      params: { path: { tenantID: context.tenantID, sessionID: ids.taken } },
      headers: { authorization: context.member.authorization },
    });
    expect(answer.data!.data[1]).toEqual(read.data!.data);
  });

  it("shows each caller what operation 11's rule shows them: the assignee their unlisted session, the inbox's connection all", async () => {
    expect(idsOf(await list(context.otherMember.authorization))).toEqual([ids.closed, ids.taken, ids.queued, ids.unlistedOfOther]);
    expect(idsOf(await list(context.channel.authorization))).toEqual([ids.closed, ids.taken, ids.queued, ids.unlistedOfOther]);
    expect(idsOf(await list(context.member.authorization, `assignee=${context.otherMember.operatorID}`))).toEqual([]);
  });

  it('filters by state and by assignee', async () => {
    const member = context.member.authorization;
    expect(idsOf(await list(member, 'state=queued'))).toEqual([ids.queued]);
    expect(idsOf(await list(member, 'state=assigned'))).toEqual([ids.taken]);
    expect(idsOf(await list(member, 'state=open'))).toEqual([ids.taken, ids.queued]);
    expect(idsOf(await list(member, 'state=closed'))).toEqual([ids.closed]);
    expect(idsOf(await list(member, 'assignee=mine'))).toEqual([ids.taken]);
    expect(idsOf(await list(context.owner.authorization, 'assignee=mine'))).toEqual([]);
    expect(idsOf(await list(context.owner.authorization, `assignee=${context.member.operatorID.toUpperCase()}`))).toEqual([ids.taken]);
    expect(idsOf(await list(member, 'state=open&assignee=unassigned'))).toEqual([ids.queued]);
    expect(idsOf(await list(context.otherMember.authorization, 'assignee=someone'))).toEqual([ids.taken, ids.unlistedOfOther]);
  });

  it('pages by keyset: 206 with a cursor while more follow, 200 and null on the last page', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(context.otherMember.authorization, cursor ? `limit=1&cursor=${cursor}` : 'limit=1');
      seen.push(...idsOf(page));
      cursor = page.data!.meta.nextCursor;
      expect(page.response.status).toBe(cursor === null ? 200 : 206);
    } while (cursor !== null);
    expect(seen).toEqual([ids.closed, ids.taken, ids.queued, ids.unlistedOfOther]);
  });

  it('refuses unknown filters, a page size out of 1-100 and a cursor it did not make, naming the parameter', async () => {
    const fieldsOf = async (query: string, authorization = context.member.authorization) => {
      const answer = await list(authorization, query);
      expect(answer.response.status).toBe(400);
      expect(singleError(answer.error).error_code).toBe(1002);
      return singleError(answer.error).fields ?? [];
    };
    expect(await fieldsOf('state=pending')).toEqual([{ field: 'state', received: 'pending', allowed: 'one of: queued, assigned, open, closed' }]);
    expect(await fieldsOf('assignee=nobody')).toEqual([{ field: 'assignee', received: 'nobody', allowed: "one of: mine, unassigned, someone, or an operator's id (uuid)" }]);
    expect(await fieldsOf('assignee=mine', context.channel.authorization)).toEqual([expect.objectContaining({ field: 'assignee', received: 'mine' })]);
    expect((await fieldsOf('limit=0'))[0]).toMatchObject({ field: 'limit', received: '0' });
    expect((await fieldsOf('limit=101'))[0]).toMatchObject({ field: 'limit', received: '101' });
    const page = await list(context.member.authorization, 'limit=1');
    const cursor = page.data!.meta.nextCursor!;
    const altered = `${cursor.startsWith('M') ? 'N' : 'M'}${cursor.slice(1)}`;
    expect((await fieldsOf(`cursor=${altered}`))[0]).toMatchObject({ field: 'cursor' });
  });

  it('counts the open sessions each caller may see, exactly', async () => {
    expect((await counts(context.member.authorization)).data!.data).toEqual({ queued: 1, assigned: 1, open: 2, unassigned: 1, mine: 1 });
    expect((await counts(context.otherMember.authorization)).data!.data).toEqual({ queued: 1, assigned: 2, open: 3, unassigned: 1, mine: 1 });
    expect((await counts(context.owner.authorization)).data!.data).toEqual({ queued: 1, assigned: 1, open: 2, unassigned: 1, mine: 0 });
    expect((await counts(context.channel.authorization)).data!.data).toEqual({ queued: 1, assigned: 2, open: 3, unassigned: 1, mine: null });
  });

  it("answers another connection's inbox, an unknown one and another tenant's as 404 1940", async () => {
    refused(await list(context.otherChannel.authorization), 404, 1940);
    refused(await counts(context.otherChannel.authorization), 404, 1940);
    refused(await list(context.member.authorization, '', { inbox: randomUUID() }), 404, 1940);
    refused(await list(context.otherOwner.authorization, '', { tenantID: context.otherTenantID }), 404, 1940);
    refused(await counts(context.otherOwner.authorization, { tenantID: context.otherTenantID }), 404, 1940);
    refused(await list(context.otherTenantChannel.authorization, '', { tenantID: context.otherTenantID }), 404, 1940);
  });

  for (const path of ['/v1/tenants/{tenantID}/inboxes/{inboxID}/sessions', '/v1/tenants/{tenantID}/inboxes/{inboxID}/session-counts'] as const) {
    describeStandardRefusals({
      method: 'GET',
      path,
      client: () => context.platform.api.services,
      tenantID: () => context.tenantID,
      pathParams: () => ({ inboxID }),
      valid: () => context.member.authorization,
      outsider: () => [context.otherOwner.authorization, context.otherTenantChannel.authorization],
    });
  }
});
