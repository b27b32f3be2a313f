import { trustedTenantScope } from '@platform/auth';
import { createTestDataSource, FixtureBuilder } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenSubjectsRepository } from './token-subjects.repository';

/** What the token issuers read, against PostgreSQL: whether an operator exists, and which of some plugins are trace providers live on the tenant. */
describe('TokenSubjectsRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let subjects: TokenSubjectsRepository;
  let fixtures: FixtureBuilder;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    subjects = new TokenSubjectsRepository(dataSource);
    fixtures = new FixtureBuilder(dataSource);
  });
  afterAll(() => close?.());

  it('tells whether an operator exists', async () => {
    expect(await subjects.operatorExists((await fixtures.operator()).operatorID)).toBe(true);
    expect(await subjects.operatorExists(randomUUID())).toBe(false);
  });

  it('keeps of the plugins asked those with a trace endpoint and a live connection on the tenant', async () => {
    const tenantID = await fixtures.tenant();
    const provider = await fixtures.plugin({ urn: `urn:plugin:traces-${randomUUID()}`, traceEndpointUrl: 'https://traces.example.com/' });
    const notLive = await fixtures.plugin({ traceEndpointUrl: 'https://traces.example.com/' });
    const noEndpoint = await fixtures.plugin();
    const notAsked = await fixtures.plugin({ traceEndpointUrl: 'https://traces.example.com/' });
    for (const plugin of [provider, noEndpoint, notAsked]) await fixtures.connection(tenantID, plugin.pluginID);
    const [{ urn }] = (await dataSource.query('SELECT urn FROM plugins WHERE id = $1', [provider.pluginID])) as { urn: string }[];

    const asked = [provider.pluginID, notLive.pluginID, noEndpoint.pluginID, randomUUID()];
    expect(await subjects.liveTraceProviders(trustedTenantScope(tenantID), asked)).toEqual([{ id: provider.pluginID, urn }]);
    expect(await subjects.liveTraceProviders(trustedTenantScope(await fixtures.tenant()), asked)).toEqual([]);
    expect(await subjects.liveTraceProviders(trustedTenantScope(tenantID), [])).toEqual([]);
  });
});
