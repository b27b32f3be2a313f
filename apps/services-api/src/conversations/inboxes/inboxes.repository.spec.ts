import { trustedTenantScope } from '@platform/auth';
import type { SqlRunner } from '@platform/database';
import { ConversationFixtures, createTestDataSource, FixtureBuilder } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InboxesRepository } from './inboxes.repository';

/**
 * Inboxes' SQL against PostgreSQL: the live-connection check, the camelCase
 * row, live reads (a removed inbox is gone to all of them), the rename, open
 * sessions, and the page with its count, all or one connection's, in order,
 * past the end included, and tenant scoping.
 */
describe('InboxesRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let inboxes: InboxesRepository;
  let fixtures: FixtureBuilder;
  let conversations: ConversationFixtures;
  let tenantID: string;
  let otherTenantID: string;
  let connectionID: string;
  let pluginID: string;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    inboxes = new InboxesRepository(dataSource);
    fixtures = new FixtureBuilder(dataSource);
    conversations = new ConversationFixtures(dataSource);
    otherTenantID = await fixtures.tenant();
    pluginID = (await fixtures.plugin()).pluginID;
  });
  afterAll(() => close?.());
  beforeEach(async () => {
    tenantID = await fixtures.tenant();
    connectionID = (await fixtures.connection(tenantID, pluginID)).pluginConnectionID;
  });

  const scope = (tenant = tenantID) => trustedTenantScope(tenant);
  const change = <T>(work: (runner: SqlRunner) => Promise<T>) => inboxes.transaction(work);
  const create = (name = 'Vendas', pluginConnectionID = connectionID) => change((runner) => inboxes.insert(runner, scope(), { name, channel: 'whatsapp', pluginConnectionID }));

  it("tells a live connection of the tenant from another tenant's, a removed one and none", async () => {
    const removed = (await fixtures.connection(tenantID, (await fixtures.plugin()).pluginID)).pluginConnectionID;
    await dataSource.query(`UPDATE plugin_connections SET status = 'removed', removed_at = now() WHERE id = $1`, [removed]);

    expect(await change((runner) => inboxes.hasLiveConnection(runner, scope(), connectionID))).toBe(true);
    expect(await change((runner) => inboxes.hasLiveConnection(runner, scope(otherTenantID), connectionID))).toBe(false);
    expect(await change((runner) => inboxes.hasLiveConnection(runner, scope(), removed))).toBe(false);
    expect(await change((runner) => inboxes.hasLiveConnection(runner, scope(), randomUUID()))).toBe(false);
  });

  it('creates an inbox as a camelCase row, read live, renamed, then removed from every live read', async () => {
    const created = await create('Vendas');
    expect(created).toEqual({ inboxID: expect.any(String), name: 'Vendas', channel: 'whatsapp', pluginConnectionID: connectionID, createdAt: expect.any(Date), updatedAt: expect.any(Date) });
    expect(await inboxes.live(scope(), created.inboxID)).toEqual(created);
    expect(await inboxes.live(scope(otherTenantID), created.inboxID)).toBeUndefined();

    expect(await change((runner) => inboxes.rename(runner, scope(otherTenantID), created.inboxID, 'Other'))).toBeUndefined();
    expect(await change((runner) => inboxes.rename(runner, scope(), created.inboxID, 'Suporte'))).toMatchObject({ inboxID: created.inboxID, name: 'Suporte' });

    await change((runner) => inboxes.remove(runner, scope(otherTenantID), created.inboxID));
    expect(await change((runner) => inboxes.lockLive(runner, scope(), created.inboxID))).toMatchObject({ name: 'Suporte' });
    await change((runner) => inboxes.remove(runner, scope(), created.inboxID));
    expect(await inboxes.live(scope(), created.inboxID)).toBeUndefined();
    expect(await change((runner) => inboxes.lockLive(runner, scope(), created.inboxID))).toBeUndefined();
    expect(await change((runner) => inboxes.shareLive(runner, scope(), created.inboxID))).toBeUndefined();
    expect(await change((runner) => inboxes.rename(runner, scope(), created.inboxID, 'Again'))).toBeUndefined();
  });

  it('tells whether the inbox has an open session', async () => {
    const { inboxID } = await create();
    const contactID = await conversations.contact(tenantID);
    const open = () => change((runner) => inboxes.hasOpenSessions(runner, scope(), inboxID));

    expect(await open()).toBe(false);
    await conversations.session(tenantID, { contactID, inboxID, closedAt: new Date('2026-03-01T00:00:00Z') });
    expect(await open()).toBe(false);
    await conversations.session(tenantID, { contactID, inboxID });
    expect(await open()).toBe(true);
    expect(await change((runner) => inboxes.hasOpenSessions(runner, scope(otherTenantID), inboxID))).toBe(false);
  });

  it("pages the live inboxes oldest first, all or one connection's, with their count, past the end too", async () => {
    const otherConnection = (await fixtures.connection(tenantID, (await fixtures.plugin()).pluginID)).pluginConnectionID;
    const ids = [(await create('a')).inboxID, (await create('b')).inboxID, (await create('c', otherConnection)).inboxID, (await create('d')).inboxID];
    await dataSource.query(`UPDATE inboxes SET created_at = '2026-03-02T12:00:00Z' WHERE id = ANY($1::uuid[])`, [ids.slice(0, 2)]);
    await dataSource.query(`UPDATE inboxes SET created_at = '2026-03-03T12:00:00Z' WHERE id = ANY($1::uuid[])`, [ids.slice(2)]);
    await change((runner) => inboxes.remove(runner, scope(), ids[3]));
    const order = [...ids.slice(0, 2).sort(), ids[2]];
    const page = async (connection: string | null, offset: number, limit: number) => {
      const found = await inboxes.page(scope(), connection, { offset, limit });
      return { totalCount: found.totalCount, ids: found.data.map((inbox) => inbox.inboxID) };
    };

    expect(await page(null, 0, 10)).toEqual({ totalCount: 3, ids: order });
    expect(await page(null, 1, 1)).toEqual({ totalCount: 3, ids: [order[1]] });
    expect(await page(null, 5, 10)).toEqual({ totalCount: 3, ids: [] });
    expect(await page(connectionID, 0, 10)).toEqual({ totalCount: 2, ids: order.slice(0, 2) });
    expect(await page(otherConnection, 1, 10)).toEqual({ totalCount: 1, ids: [] });
    expect((await inboxes.page(scope(), null, { offset: 0, limit: 1 })).data[0]).not.toHaveProperty('total_count');
    expect(await inboxes.page(scope(otherTenantID), null, { offset: 0, limit: 10 })).toEqual({ totalCount: 0, data: [] });
  });
});
