import { randomUUID } from 'node:crypto';
import { HeldRequests, singleError } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';

/** Each app's database pool, kept small so that deletes holding connections would exhaust it. */
const POOL_SIZE = 2;

/**
 * Operation 1 while the VM provider hangs. A delete waiting on the provider
 * holds no database connection and no row lock, so the tenant's other
 * requests, the connection's own included, are served meanwhile.
 */
describe('operation 1 while the VM provider hangs', () => {
  let platform: TestPlatform;
  let tenantID: string;
  let ownerToken: string;
  let held: HeldRequests | undefined;

  const remove = (pluginConnectionID: string) =>
    platform.api.services.DELETE('/v1/tenants/{tenantID}/plugins/connections/{pluginConnectionID}', {
      params: { path: { tenantID, pluginConnectionID } },
      headers: { authorization: `Bearer ${ownerToken}` },
    });
  const install = (pluginID: string) =>
    platform.api.services.POST('/v1/tenants/{tenantID}/plugins/connections', {
      params: { path: { tenantID } },
      headers: { authorization: `Bearer ${ownerToken}` },
      body: { pluginID },
    });
  /** core-tenants' GET /v1/tenants/:id with a connection's token: while a removal is in progress it reads the connection's row. */
  const tenantThrough = (authorization: string) => platform.api.core.GET('/v1/tenants/{tenantID}', { params: { path: { tenantID } }, headers: { authorization } });
  /** Operation 11 with a connection's token, at services-api (an unknown contact is an empty page). */
  const sessionsThrough = (authorization: string) =>
    platform.api.services.GET('/v1/tenants/{tenantID}/contacts/{contactID}/sessions', {
      params: { path: { tenantID, contactID: randomUUID() } },
      headers: { authorization },
    });
  const statusOf = async (connectionID: string) =>
    (await platform.dataSource.query('SELECT status FROM plugin_connections WHERE id = $1', [connectionID]))[0]?.status;

  async function hostedConnection() {
    const plugin = await platform.fixtures.plugin({ kind: 'hosted' });
    const vmID = `vm-${randomUUID()}`;
    platform.vms.addVm(vmID);
    return { ...(await platform.fixtures.connection(tenantID, plugin.pluginID, { kind: 'hosted', vmID })), vmID };
  }

  beforeAll(async () => {
    // The provider and the transport wait far longer than the test: only releasing the stub ends the deletes.
    platform = await startPlatform({
      apps: ['core-tenants', 'services-api'],
      env: { DATABASE_POOL_SIZE: String(POOL_SIZE), VM_PROVIDER_TIMEOUT_MS: '55000', CORE_TENANTS_RPC_TIMEOUT_MS: '60000' },
    });
    tenantID = await platform.fixtures.tenant();
    const owner = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, owner.operatorID, 'owner');
    ownerToken = await platform.tokenFor(owner.operatorID);
  });
  afterAll(async () => {
    held?.release();
    await platform.close();
  });

  it('serves the tenant, and the connections being deleted, while more deletes than pool connections wait on the provider', async () => {
    const hosted = [];
    for (let index = 0; index <= POOL_SIZE; index += 1) hosted.push(await hostedConnection());
    const plain = await platform.fixtures.connection(tenantID, (await platform.fixtures.plugin()).pluginID);
    const another = await platform.fixtures.plugin();

    held = platform.vms.hold();
    const deletes = hosted.map((connection) => remove(connection.pluginConnectionID));
    let deletesAnswered = false;
    void Promise.allSettled(deletes).then(() => (deletesAnswered = true));
    let again: ReturnType<typeof remove> | undefined;
    try {
      await held.reached(hosted.length);

      // A removal in progress leaves the connection live until the provider answers: its token still works.
      for (const connection of hosted) {
        expect((await tenantThrough(connection.authorization)).response.status).toBe(200);
        expect((await sessionsThrough(connection.authorization)).response.status).toBe(200);
      }
      expect((await platform.api.core.GET('/tenants', { headers: { authorization: `Bearer ${ownerToken}` } })).response.status).toBe(200);
      expect((await remove(plain.pluginConnectionID)).response.status).toBe(200);
      expect((await install(another.pluginID)).response.status).toBe(201);
      // A second delete of a connection being deleted waits for the first's outcome, without calling the provider.
      again = remove(hosted[0].pluginConnectionID);
      expect(await statusOf(hosted[0].pluginConnectionID)).toBe('live');

      // All of that was answered while the provider still held every delete.
      expect(deletesAnswered).toBe(false);
    } finally {
      held.release();
    }

    const answers = await Promise.all(deletes);
    expect(answers.map((answer) => answer.response.status)).toEqual(hosted.map(() => 200));
    const second = await again!;
    expect([second.response.status, singleError(second.error).error_code]).toEqual([404, 1054]);
    expect(platform.vms.callsTo('DELETE', `/vms/${hosted[0].vmID}`)).toHaveLength(1);
    for (const connection of hosted) {
      expect(await statusOf(connection.pluginConnectionID)).toBe('removed');
      expect((await tenantThrough(connection.authorization)).response.status).toBe(401);
    }
  });
});
