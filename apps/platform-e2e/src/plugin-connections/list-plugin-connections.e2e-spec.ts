import { singleError } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationPlatform, startConversationPlatform } from '../conversations/conversation-platform';
import { queryAsSent } from '../support/sent-as-is';
import { describeStandardRefusals } from '../support/standard-refusals';

/**
 * GET /v1/tenants/{tenantID}/plugins/connections through HTTP
 * (docs/plugin-connections.md#listing-them): the tenant's live connections
 * with their plugins and inboxes, every one for operators, itself for a
 * connection, none of another tenant's.
 */
describe('GET /v1/tenants/:tenantID/plugins/connections', () => {
  let context: ConversationPlatform;
  let inboxID: string;
  const api = () => context.platform.api.services;

  const list = (authorization: string, query = '', tenantID = context.tenantID) =>
    api().GET('/v1/tenants/{tenantID}/plugins/connections', { params: { path: { tenantID }, query: queryAsSent(query) }, headers: { authorization } });
  const idsOf = (answer: { data?: { data: { pluginConnectionID: string }[] } }) => answer.data!.data.map((connection) => connection.pluginConnectionID);

  beforeAll(async () => {
    context = await startConversationPlatform();
    inboxID = (
      await api().POST('/v1/tenants/{tenantID}/inboxes', {
        params: { path: { tenantID: context.tenantID } },
        headers: { authorization: context.owner.authorization },
        body: { name: 'WhatsApp Vendas', channel: 'whatsapp', pluginConnectionID: context.channel.pluginConnectionID },
      })
    ).data!.data.inboxID;
  });
  afterAll(() => context?.close());

  it('lists every live connection of the tenant, oldest first, with its plugin and inboxes, to any operator', async () => {
    for (const operator of [context.member, context.owner]) {
      const answer = await list(operator.authorization);
      expect(answer.response.status).toBe(200);
      expect(idsOf(answer)).toEqual([context.channel.pluginConnectionID, context.otherChannel.pluginConnectionID]);
      expect(answer.data!.data[0]).toEqual({
        pluginConnectionID: context.channel.pluginConnectionID,
        kind: 'plain',
        createdAt: expect.any(String),
        plugin: { pluginID: expect.any(String), name: 'WhatsApp channel', urn: expect.any(String), iconUrl: null },
        inboxes: [{ inboxID, name: 'WhatsApp Vendas', channel: 'whatsapp' }],
        inboxCount: 1,
      });
    }
  });

  it('shows a plugin connection only itself, and another tenant only its own', async () => {
    expect(idsOf(await list(context.otherChannel.authorization))).toEqual([context.otherChannel.pluginConnectionID]);
    expect(idsOf(await list(context.otherOwner.authorization, '', context.otherTenantID))).toEqual([context.otherTenantChannel.pluginConnectionID]);
  });

  it('pages by keyset and refuses a page size out of 1-100 or a cursor it did not make', async () => {
    const first = await list(context.member.authorization, 'limit=1');
    expect(first.response.status).toBe(206);
    const cursor = first.data!.meta.nextCursor!;
    const second = await list(context.member.authorization, `limit=1&cursor=${cursor}`);
    expect([second.response.status, idsOf(second)]).toEqual([200, [context.otherChannel.pluginConnectionID]]);
    for (const query of ['limit=0', 'limit=101', `cursor=${cursor.startsWith('M') ? 'N' : 'M'}${cursor.slice(1)}`]) {
      const answer = await list(context.member.authorization, query);
      expect(answer.response.status, query).toBe(400);
      expect(singleError(answer.error).fields).toEqual([expect.objectContaining({ field: query.split('=')[0] })]);
    }
  });

  describeStandardRefusals({
    method: 'GET',
    path: '/v1/tenants/{tenantID}/plugins/connections',
    client: () => context.platform.api.services,
    tenantID: () => context.tenantID,
    valid: () => context.member.authorization,
    outsider: () => [context.otherOwner.authorization, context.otherTenantChannel.authorization],
  });
});
