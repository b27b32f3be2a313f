import { ServicesApiClient } from '@platform/api-client';
import { PluginConnectionFixture, singleError } from '@platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { FaultPlatform, startFaultPlatform } from './harness/fault-platform';
import { statusAndBody } from './harness/typed-answer';

/**
 * Operation 1 with its providers failing, through two replicas of
 * services-api and of core-tenants running as separate processes.
 */
describe('plugin connections when the VM or billing provider fails (two replicas each)', () => {
  let platform: FaultPlatform;
  let tenantID: string;
  let ownerToken: string;

  const remove = (services: ServicesApiClient, pluginConnectionID: string) =>
    services.DELETE('/v1/tenants/{tenantID}/plugins/connections/{pluginConnectionID}', {
      params: { path: { tenantID, pluginConnectionID } },
      headers: { authorization: `Bearer ${ownerToken}` },
    });
  const removeThrough = (servicesUrl: string, connectionID: string) => remove(platform.replica('services-api', servicesUrl), connectionID);
  /** Whether the connection's own token opens its tenant on one core-tenants replica. */
  const tokenWorksOn = async (coreUrl: string, connection: PluginConnectionFixture) =>
    (await platform.replica('core-tenants', coreUrl).GET('/v1/tenants/{tenantID}', { params: { path: { tenantID } }, headers: { authorization: connection.authorization } }))
      .response.status;
  const statusOf = async (connectionID: string) =>
    (await platform.dataSource.query('SELECT status FROM plugin_connections WHERE id = $1', [connectionID]))[0]?.status;

  async function paidConnection() {
    const plugin = await platform.fixtures.plugin({ kind: 'paid' });
    const subscriptionItemID = `si_${Math.random().toString(36).slice(2)}`;
    platform.stubs.billing.addItem(subscriptionItemID);
    return { ...(await platform.fixtures.connection(tenantID, plugin.pluginID, { kind: 'paid', subscriptionItemID })), subscriptionItemID };
  }

  async function hostedConnection() {
    const plugin = await platform.fixtures.plugin({ kind: 'hosted' });
    const vmID = `vm-${Math.random().toString(36).slice(2)}`;
    platform.stubs.vms.addVm(vmID);
    return { ...(await platform.fixtures.connection(tenantID, plugin.pluginID, { kind: 'hosted', vmID })), vmID };
  }

  beforeAll(async () => {
    platform = await startFaultPlatform({ replicas: { 'core-tenants': 2, 'services-api': 2 } });
    tenantID = await platform.fixtures.tenant();
    const owner = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, owner.operatorID, 'owner');
    ownerToken = await platform.tokenFor(owner.operatorID);
  });
  afterAll(() => platform?.close());
  beforeEach(() => {
    platform.stubs.vms.failWithStatus = undefined;
    platform.stubs.billing.failWithStatus = undefined;
  });

  it('answers 502 5002 on every replica while the VM provider fails, keeps the connection live with its token, and removes it once the provider is back', async () => {
    const connection = await hostedConnection();
    const [core1, core2] = platform.replicas['core-tenants'].map((replica) => replica.url);
    expect(await tokenWorksOn(core1, connection)).toBe(200);
    expect(await tokenWorksOn(core2, connection)).toBe(200);

    platform.stubs.vms.failWithStatus = 503;
    for (const services of platform.replicas['services-api']) {
      const response = await removeThrough(services.url, connection.pluginConnectionID);
      expect(response.response.status).toBe(502);
      expect(singleError(response.error)).toMatchObject({ statusCode: 502, error: 'BadGatewayError', error_code: 5002 });
    }
    expect(await statusOf(connection.pluginConnectionID)).toBe('live');
    expect(await tokenWorksOn(core1, connection)).toBe(200);
    expect(await tokenWorksOn(core2, connection)).toBe(200);
    expect(platform.stubs.vms.vms.has(connection.vmID)).toBe(true);

    // The provider recovers: no restart, the next attempt removes the connection everywhere.
    platform.stubs.vms.failWithStatus = undefined;
    const removed = await removeThrough(platform.replicas['services-api'][0].url, connection.pluginConnectionID);
    expect(statusAndBody(removed)).toMatchObject({ status: 200, body: { data: { deleted: true } } });
    expect(platform.stubs.vms.vms.has(connection.vmID)).toBe(false);
    await eventually(async () => {
      expect(await tokenWorksOn(core1, connection)).toBe(401);
      expect(await tokenWorksOn(core2, connection)).toBe(401);
    });
  });

  it('answers 200 on every replica while billing fails, and cancels each item exactly once after billing recovers, though a core-tenants replica stopped meanwhile', async () => {
    const connections = [await paidConnection(), await paidConnection(), await paidConnection(), await paidConnection()];
    platform.stubs.billing.failWithStatus = 500;
    const balancer = platform.balancer('services-api');
    for (const connection of connections) {
      const response = await remove(balancer.api, connection.pluginConnectionID);
      expect(statusAndBody(response)).toMatchObject({ status: 200, body: { data: { deleted: true } } });
      expect(await statusOf(connection.pluginConnectionID)).toBe('removed');
    }
    // The cancellations are being tried, and failing.
    await eventually(() => expect(platform.stubs.billing.callsTo('DELETE', '/v1/subscription_items/').length).toBeGreaterThan(0));
    const [leaving] = platform.replicas['core-tenants'];
    await leaving.stop();

    platform.stubs.billing.failWithStatus = undefined;
    await eventually(async () => {
      const pending = await platform.dataSource.query('SELECT count(*)::int AS n FROM billing_cancellations WHERE completed_at IS NULL');
      expect(pending[0].n).toBe(0);
    });
    for (const connection of connections) {
      // One call after the recovery, answered 200: no second attempt, not even one the provider would answer 404.
      const answered = platform.stubs.billing.callsTo('DELETE', `/v1/subscription_items/${connection.subscriptionItemID}`).filter((call) => call.status !== 500);
      expect(answered.map((call) => call.status)).toEqual([200]);
      expect(platform.stubs.billing.items.has(connection.subscriptionItemID)).toBe(false);
    }
    await leaving.start();
  });
});
