import { trustedTenantScope } from '@platform/auth';
import { ConversationFixtures, createTestDataSource, FixtureBuilder } from '@platform/testing';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListedConnection, PluginConnectionReadsRepository } from './plugin-connection-reads.repository';

/**
 * The tenant's plugin connections against PostgreSQL: live ones only, oldest
 * first by keyset, each with its plugin and live inboxes, one connection
 * alone when asked, nothing of another tenant's.
 */
describe('PluginConnectionReadsRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let connections: PluginConnectionReadsRepository;
  let tenantID: string;
  let otherTenantID: string;
  const ids: string[] = [];
  let inboxIDs: string[];
  let pluginID: string;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    connections = new PluginConnectionReadsRepository(dataSource);
    const fixtures = new FixtureBuilder(dataSource);
    const conversations = new ConversationFixtures(dataSource);
    tenantID = await fixtures.tenant();
    otherTenantID = await fixtures.tenant();
    for (const [index, name] of ['WhatsApp', 'Web chat', 'Removed'].entries()) {
      const plugin = await fixtures.plugin({ name });
      if (index === 0) pluginID = plugin.pluginID;
      const { pluginConnectionID } = await fixtures.connection(tenantID, plugin.pluginID);
      await dataSource.query(`UPDATE plugin_connections SET created_at = now() - $2 * interval '1 minute' WHERE id = $1`, [pluginConnectionID, 10 - index]);
      ids.push(pluginConnectionID);
    }
    await dataSource.query(`UPDATE plugin_connections SET status = 'removed', removed_at = now() WHERE id = $1`, [ids[2]]);
    inboxIDs = [await conversations.inbox(tenantID, { name: 'Vendas', pluginConnectionID: ids[0] }), await conversations.inbox(tenantID, { name: 'Suporte', pluginConnectionID: ids[0] })];
    const removedInbox = await conversations.inbox(tenantID, { name: 'Old', pluginConnectionID: ids[0] });
    await dataSource.query(`UPDATE inboxes SET removed_at = now() WHERE id = $1`, [removedInbox]);
    await fixtures.connection(otherTenantID, (await fixtures.plugin()).pluginID);
  });
  afterAll(() => close?.());

  const idsOf = (found: ListedConnection[]) => found.map((listed) => listed.connection.pluginConnectionID);

  it('lists the live connections oldest first, each with its plugin and live inboxes', async () => {
    const found = await connections.page(trustedTenantScope(tenantID), null, undefined, 10);
    expect(idsOf(found)).toEqual([ids[0], ids[1]]);
    expect(found[0].connection).toEqual({
      pluginConnectionID: ids[0],
      kind: 'plain',
      createdAt: expect.any(String),
      plugin: { pluginID, name: 'WhatsApp', urn: expect.any(String), iconUrl: null },
      inboxes: [
        { inboxID: inboxIDs[0], name: 'Vendas', channel: 'whatsapp' },
        { inboxID: inboxIDs[1], name: 'Suporte', channel: 'whatsapp' },
      ],
      inboxCount: 2,
    });
    expect(found[1].connection).toMatchObject({ inboxes: [], inboxCount: 0 });
  });

  it('pages by keyset, lists one connection alone when asked, and nothing of another tenant', async () => {
    const scope = trustedTenantScope(tenantID);
    const [first] = await connections.page(scope, null, undefined, 1);
    expect(idsOf(await connections.page(scope, null, first.position, 1))).toEqual([ids[1]]);
    expect(idsOf(await connections.page(scope, ids[1], undefined, 10))).toEqual([ids[1]]);
    expect(idsOf(await connections.page(scope, ids[2], undefined, 10))).toEqual([]);
    const theirs = await connections.page(trustedTenantScope(otherTenantID), null, undefined, 10);
    expect(theirs).toHaveLength(1);
    expect(idsOf(theirs)).not.toContain(ids[0]);
  });
});
