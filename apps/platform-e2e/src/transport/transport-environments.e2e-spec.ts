import { randomUUID } from 'node:crypto';
import { DeletePluginConnection } from '@platform/contracts';
import { AppException } from '@platform/errors';
import { runWithRequestID } from '@platform/observability';
import { PluginConnectionFixture, TEST_REDIS_CLUSTER_NODES, TEST_REDIS_SPARE_URL } from '@platform/testing';
import { TransportClient } from '@platform/transport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';

/**
 * Two environments on one Redis server, each with its own database and Redis
 * db number (as staging and production, or the tests and `npm start`, may
 * be). Pub/sub channels ignore db numbers; the transport namespace keeps each
 * environment's requests to itself.
 */
describe('two environments on one Redis server', () => {
  let first: TestPlatform;
  let second: TestPlatform;
  let firstTenantID: string;
  let firstConnection: PluginConnectionFixture;

  const errorOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => (error as AppException).toBody());
  const firstTokenWorks = async () =>
    (await first.api.core.GET('/v1/tenants/{tenantID}', { params: { path: { tenantID: firstTenantID } }, headers: { authorization: firstConnection.authorization } }))
      .response.status === 200;
  const firstStatus = async () =>
    (await first.dataSource.query('SELECT status FROM plugin_connections WHERE id = $1', [firstConnection.pluginConnectionID]))[0].status;

  beforeAll(async () => {
    first = await startPlatform({ apps: ['core-tenants', 'services-api'] });
    second = await startPlatform({
      apps: ['core-tenants', 'services-api'],
      // A Redis Cluster has database 0 only: there the two environments share every key and channel but their namespace's.
      // The same Redis server as the tests' own, on this worker's spare database.
      env: TEST_REDIS_CLUSTER_NODES ? {} : { REDIS_URL: TEST_REDIS_SPARE_URL! },
      resetRedis: false,
    });
    firstTenantID = await first.fixtures.tenant();
    firstConnection = await first.fixtures.connection(firstTenantID, (await first.fixtures.plugin()).pluginID);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('never lets one environment act on a delete sent through the other', async () => {
    const client = second.apps['services-api']!.get(TransportClient);
    const answer = await errorOf(client.send(DeletePluginConnection, { tenantID: firstTenantID, pluginConnectionID: firstConnection.pluginConnectionID }));

    // Answered by the second environment's core-tenants, from its own database.
    expect(answer).toMatchObject({ statusCode: 404, error_code: 1054 });
    expect(await firstStatus()).toBe('live');
    expect(await firstTokenWorks()).toBe(true);
  });

  it('gives an environment whose core-tenants is down a timeout, never the other environment\'s answer', async () => {
    await second.apps['core-tenants']!.close();
    delete second.apps['core-tenants'];
    const client = second.apps['services-api']!.get(TransportClient);

    const answer = await errorOf(client.send(DeletePluginConnection, { tenantID: firstTenantID, pluginConnectionID: firstConnection.pluginConnectionID }));

    expect(answer).toMatchObject({ statusCode: 504, error_code: 5904 });
    expect(await firstStatus()).toBe('live');
    expect(await firstTokenWorks()).toBe(true);
  });

  it('still serves the first environment\'s own requests', async () => {
    const client = first.apps['services-api']!.get(TransportClient);
    // A removal is audited, so it is sent for someone, as services-api does for the operator who asked.
    await runWithRequestID('transport-environments', () => client.send(DeletePluginConnection, { tenantID: firstTenantID, pluginConnectionID: firstConnection.pluginConnectionID }), `operator:${randomUUID()}`);
    expect(await firstStatus()).toBe('removed');
    expect(await firstTokenWorks()).toBe(false);
  });
});
