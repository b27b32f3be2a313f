import { randomUUID } from 'node:crypto';
import { HeldRequests, singleError } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultPlatform, startFaultPlatform } from './harness/fault-platform';
import { statusAndBody } from './harness/typed-answer';

/**
 * Operation 1 when core-tenants dies between the steps of a removal: after
 * the connection was claimed and while the VM provider holds the delete.
 * The claim lapses with its lease; the connection is live meanwhile, and a
 * delete asked again removes it.
 */
describe('core-tenants killed while a delete waits on the VM provider', () => {
  let platform: FaultPlatform;
  let tenantID: string;
  let ownerToken: string;
  let held: HeldRequests | undefined;

  const removeThrough = (servicesUrl: string, pluginConnectionID: string) =>
    platform.replica('services-api', servicesUrl).DELETE('/v1/tenants/{tenantID}/plugins/connections/{pluginConnectionID}', {
      params: { path: { tenantID, pluginConnectionID } },
      headers: { authorization: `Bearer ${ownerToken}` },
    });
  /** core-tenants' GET /v1/tenants/:id with the connection's token, on one replica. */
  const tokenStatusOnCore = async (coreUrl: string, authorization: string) =>
    (await platform.replica('core-tenants', coreUrl).GET('/v1/tenants/{tenantID}', { params: { path: { tenantID } }, headers: { authorization } })).response.status;
  /** Operation 11 with the connection's token (an unknown contact is an empty page). */
  const tokenStatusOnServices = async (servicesUrl: string, authorization: string) =>
    (
      await platform.replica('services-api', servicesUrl).GET('/v1/tenants/{tenantID}/contacts/{contactID}/sessions', {
        params: { path: { tenantID, contactID: randomUUID() } },
        headers: { authorization },
      })
    ).response.status;
  const statusOf = async (connectionID: string) =>
    (await platform.dataSource.query('SELECT status FROM plugin_connections WHERE id = $1', [connectionID]))[0]?.status;

  beforeAll(async () => {
    // The transport waits longer than the claim's lease (VM timeout + 1 s), so a delete asked again right after the restart is answered.
    platform = await startFaultPlatform({
      replicas: { 'core-tenants': 2, 'services-api': 1 },
      env: { VM_PROVIDER_TIMEOUT_MS: '3000', CORE_TENANTS_RPC_TIMEOUT_MS: '10000' },
    });
    tenantID = await platform.fixtures.tenant();
    const owner = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, owner.operatorID, 'owner');
    ownerToken = await platform.tokenFor(owner.operatorID);
  });
  afterAll(async () => {
    held?.release();
    await platform?.close();
  });

  it('leaves the connection live with its token working, and removes it when asked again', async () => {
    const plugin = await platform.fixtures.plugin({ kind: 'hosted' });
    const vmID = `vm-${randomUUID()}`;
    platform.stubs.vms.addVm(vmID);
    const connection = await platform.fixtures.connection(tenantID, plugin.pluginID, { kind: 'hosted', vmID });
    const cores = platform.replicas['core-tenants'];
    const [services] = platform.replicas['services-api'];

    held = platform.stubs.vms.hold();
    const interrupted = removeThrough(services.url, connection.pluginConnectionID);
    await held.reached(1);
    // The connection is claimed and its VM call in flight: whichever replica runs the delete dies now.
    for (const core of cores) core.kill('SIGKILL');
    for (const core of cores) await core.exited();
    const [left] = await platform.dataSource.query('SELECT removal_claim_id FROM plugin_connections WHERE id = $1', [connection.pluginConnectionID]);
    expect(left.removal_claim_id).not.toBeNull();
    // The provider then deletes the VM, though nobody hears it: the next delete finds it gone.
    held.release();
    for (const core of cores) await core.start();

    expect(await statusOf(connection.pluginConnectionID)).toBe('live');
    for (const core of cores) expect(await tokenStatusOnCore(core.url, connection.authorization)).toBe(200);
    expect(await tokenStatusOnServices(services.url, connection.authorization)).toBe(200);

    const again = await removeThrough(services.url, connection.pluginConnectionID);
    expect(statusAndBody(again)).toMatchObject({ status: 200, body: { data: { deleted: true } } });
    expect(await statusOf(connection.pluginConnectionID)).toBe('removed');
    for (const core of cores) expect(await tokenStatusOnCore(core.url, connection.authorization)).toBe(401);
    expect(await tokenStatusOnServices(services.url, connection.authorization)).toBe(401);

    // The delete the replica died in was never answered by core-tenants: a timeout, in the envelope.
    const unanswered = await interrupted;
    expect([unanswered.response.status, singleError(unanswered.error).error_code]).toEqual([504, 5904]);
  });
});
