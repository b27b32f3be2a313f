import { trustedTenantScope } from '@platform/auth';
import { ConversationFixtures, createTestDataSource, FixtureBuilder } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessingTracesRepository } from './processing-traces.repository';

/**
 * Processing traces' SQL against PostgreSQL: the tenant's trace providers
 * (plugins with a trace endpoint and a live connection on the tenant) as
 * camelCase providers by URN, the session's existence, and which of some
 * message ids are the session's, oldest first.
 */
describe('ProcessingTracesRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let traces: ProcessingTracesRepository;
  let fixtures: FixtureBuilder;
  let conversations: ConversationFixtures;
  let tenantID: string;
  let otherTenantID: string;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    traces = new ProcessingTracesRepository(dataSource);
    fixtures = new FixtureBuilder(dataSource);
    conversations = new ConversationFixtures(dataSource);
    tenantID = await fixtures.tenant();
    otherTenantID = await fixtures.tenant();
  });
  afterAll(() => close?.());

  const scope = (tenant = tenantID) => trustedTenantScope(tenant);

  it('lists the plugins with a trace endpoint live on the tenant, by URN, as camelCase providers', async () => {
    const [alphaUrn, zetaUrn] = [`urn:plugin:a-${randomUUID()}`, `urn:plugin:z-${randomUUID()}`];
    const zeta = await fixtures.plugin({ name: 'Zeta', urn: zetaUrn, traceEndpointUrl: 'https://zeta.example.com/traces' });
    const alpha = await fixtures.plugin({ name: 'Alpha', urn: alphaUrn, iconUrl: 'https://alpha.example.com/icon.png', traceEndpointUrl: 'https://alpha.example.com/traces' });
    const noEndpoint = await fixtures.plugin({ name: 'Plain' });
    const removed = await fixtures.plugin({ name: 'Removed', traceEndpointUrl: 'https://removed.example.com/traces' });
    for (const plugin of [zeta, alpha, noEndpoint, removed]) await fixtures.connection(tenantID, plugin.pluginID);
    await dataSource.query(`UPDATE plugin_connections SET status = 'removed', removed_at = now() WHERE plugin_id = $1`, [removed.pluginID]);

    expect(await traces.providersOf(scope())).toEqual([
      { pluginID: alpha.pluginID, urn: alphaUrn, name: 'Alpha', iconUrl: 'https://alpha.example.com/icon.png', endpointUrl: 'https://alpha.example.com/traces' },
      { pluginID: zeta.pluginID, urn: zetaUrn, name: 'Zeta', iconUrl: null, endpointUrl: 'https://zeta.example.com/traces' },
    ]);
    expect(await traces.providersOf(scope(otherTenantID))).toEqual([]);
  });

  it("tells a session of the tenant, and which of some message ids are the session's, oldest first", async () => {
    const inboxID = await conversations.inbox(tenantID);
    const contactID = await conversations.contact(tenantID);
    const sessionID = await conversations.session(tenantID, { contactID, inboxID });
    const otherSession = await conversations.session(tenantID, { contactID, inboxID });
    const later = await conversations.message(tenantID, sessionID, { createdAt: new Date('2026-03-02T12:00:02Z') });
    const earlier = await conversations.message(tenantID, sessionID, { createdAt: new Date('2026-03-02T12:00:01Z') });
    const elsewhere = await conversations.message(tenantID, otherSession);

    expect(await traces.sessionExists(scope(), sessionID)).toBe(true);
    expect(await traces.sessionExists(scope(otherTenantID), sessionID)).toBe(false);
    expect(await traces.sessionExists(scope(), randomUUID())).toBe(false);
    expect(await traces.sessionMessagesAmong(scope(), sessionID, [later, elsewhere, randomUUID(), earlier])).toEqual([earlier, later]);
    expect(await traces.sessionMessagesAmong(scope(otherTenantID), sessionID, [later, earlier])).toEqual([]);
    expect(await traces.sessionMessagesAmong(scope(), sessionID, [])).toEqual([]);
  });
});
