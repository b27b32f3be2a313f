import { createTestDataSource, FixtureBuilder } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HelpdeskAccessRepository } from './helpdesk-access.repository';

/** What the helpdesk access rule reads, against PostgreSQL: the plugin of a URN, and whether a tenant exists and has it live. */
describe('HelpdeskAccessRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let access: HelpdeskAccessRepository;
  let fixtures: FixtureBuilder;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    access = new HelpdeskAccessRepository(dataSource);
    fixtures = new FixtureBuilder(dataSource);
  });
  afterAll(() => close?.());

  it("finds the plugin of a URN, and tells a tenant's helpdesk state", async () => {
    const urn = `urn:plugin:helpdesk-${randomUUID()}`;
    const { pluginID } = await fixtures.plugin({ urn });
    const connected = await fixtures.tenant();
    const removed = await fixtures.tenant();
    const without = await fixtures.tenant();
    await fixtures.connection(connected, pluginID);
    const { pluginConnectionID } = await fixtures.connection(removed, pluginID);
    await dataSource.query(`UPDATE plugin_connections SET status = 'removed', removed_at = now() WHERE id = $1`, [pluginConnectionID]);

    expect(await access.pluginIDByUrn(urn)).toBe(pluginID);
    expect(await access.pluginIDByUrn(`urn:plugin:${randomUUID()}`)).toBeUndefined();
    expect(await access.tenantHelpdeskState(connected, pluginID)).toEqual({ exists: true, connected: true });
    expect(await access.tenantHelpdeskState(removed, pluginID)).toEqual({ exists: true, connected: false });
    expect(await access.tenantHelpdeskState(without, pluginID)).toEqual({ exists: true, connected: false });
    expect(await access.tenantHelpdeskState(connected, undefined)).toEqual({ exists: true, connected: false });
    expect(await access.tenantHelpdeskState(randomUUID(), pluginID)).toEqual({ exists: false, connected: false });
  });
});
