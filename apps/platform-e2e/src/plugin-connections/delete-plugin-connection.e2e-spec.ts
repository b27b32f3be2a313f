import { CredentialStore } from '@platform/auth';
import { PluginConnectionFixture, singleError, WebhookEventFixtures, withTableMissing } from '@platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';
import { eventually } from '../support/eventually';
import { describeStandardRefusals } from '../support/standard-refusals';

/** Operation 1 (docs/plugin-connections.md), across services-api, the Redis transport and core-tenants. */
describe('DELETE /v1/tenants/:tenantID/plugins/connections/:pluginConnectionID (operation 1)', () => {
  let platform: TestPlatform;
  let tenantID: string;
  let otherTenantID: string;
  let ownerToken: string;
  let memberToken: string;
  let outsiderToken: string;

  const removeWith = (pluginConnectionID: string, headers: Record<string, string>, tenant = tenantID) =>
    platform.api.services.DELETE('/v1/tenants/{tenantID}/plugins/connections/{pluginConnectionID}', {
      params: { path: { tenantID: tenant, pluginConnectionID } },
      headers,
    });
  const remove = (connectionID: string, token = ownerToken, tenant = tenantID) => removeWith(connectionID, { authorization: `Bearer ${token}` }, tenant);
  /** Whether a connection's own token still opens its tenant (core-tenants' GET /v1/tenants/:id). */
  const tokenWorks = async (connection: PluginConnectionFixture) =>
    (await platform.api.core.GET('/v1/tenants/{tenantID}', { params: { path: { tenantID } }, headers: { authorization: connection.authorization } })).response
      .status === 200;
  const cancellationOf = async (subscriptionItemID: string): Promise<{ completed_at: Date | null; attempts: number }> =>
    (await platform.dataSource.query('SELECT completed_at, attempts FROM billing_cancellations WHERE subscription_item_id = $1', [subscriptionItemID]))[0];
  /** The tenant's webhook events about the connection, oldest first. */
  const connectionEvents = async (pluginConnectionID: string) =>
    (await new WebhookEventFixtures(platform.dataSource).eventsOf(tenantID)).filter((event) => event.data.pluginConnectionID === pluginConnectionID);
  const statusOf = async (connectionID: string) =>
    (await platform.dataSource.query('SELECT status FROM plugin_connections WHERE id = $1', [connectionID]))[0]?.status;

  async function connectionOf(kind: 'plain' | 'paid' | 'hosted', tenant = tenantID) {
    const plugin = await platform.fixtures.plugin({ kind });
    const subscriptionItemID = kind === 'paid' ? `si_${Math.random().toString(36).slice(2)}` : undefined;
    const vmID = kind === 'hosted' ? `vm-${Math.random().toString(36).slice(2)}` : undefined;
    if (subscriptionItemID) platform.billing.addItem(subscriptionItemID);
    if (vmID) platform.vms.addVm(vmID);
    const connection = await platform.fixtures.connection(tenant, plugin.pluginID, { kind, subscriptionItemID, vmID });
    return { ...connection, subscriptionItemID, vmID };
  }

  beforeAll(async () => {
    platform = await startPlatform({ apps: ['core-tenants', 'services-api'] });
    tenantID = await platform.fixtures.tenant();
    otherTenantID = await platform.fixtures.tenant();
    const owner = await platform.fixtures.operator();
    const member = await platform.fixtures.operator();
    const outsider = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, owner.operatorID, 'owner');
    await platform.fixtures.membership(tenantID, member.operatorID, 'member');
    await platform.fixtures.membership(otherTenantID, outsider.operatorID, 'owner');
    ownerToken = await platform.tokenFor(owner.operatorID);
    memberToken = await platform.tokenFor(member.operatorID);
    outsiderToken = await platform.tokenFor(outsider.operatorID);
  });
  afterAll(() => platform.close());
  beforeEach(async () => {
    platform.billing.failWithStatus = undefined;
    platform.vms.failWithStatus = undefined;
    platform.vms.latencyMs = 0;
    if (!platform.billing.listeningPort) await platform.billing.start();
  });

  /** A live connection every standard refusal aims at: none may remove it. */
  let refusedTarget: Promise<PluginConnectionFixture> | undefined;
  const target = () => (refusedTarget ??= connectionOf('plain'));
  describeStandardRefusals({
    method: 'DELETE',
    path: '/v1/tenants/{tenantID}/plugins/connections/{pluginConnectionID}',
    client: () => platform.api.services,
    tenantID: () => tenantID,
    pathParams: async () => ({ pluginConnectionID: (await target()).pluginConnectionID }),
    valid: () => `Bearer ${ownerToken}`,
    outsider: () => `Bearer ${outsiderToken}`,
    wrongRole: () => `Bearer ${memberToken}`,
    // The connection's own credentials: operation 1 takes an operator token only.
    invalid: async () => [(await target()).authorization],
    written: async () => statusOf((await target()).pluginConnectionID),
  });

  describe('errors', () => {
    it('is 400 1002 naming each malformed id', async () => {
      const response = await remove('not-an-id', ownerToken, 'also-not');
      expect(response.response.status).toBe(400);
      expect(singleError(response.error).fields).toEqual([
        { field: 'tenantID', received: 'also-not', allowed: 'uuid' },
        { field: 'pluginConnectionID', received: 'not-an-id', allowed: 'uuid' },
      ]);
    });

    it('is 404 1054 for an unknown connection, one of another tenant, and one already removed', async () => {
      const foreign = await connectionOf('plain', otherTenantID);
      const removed = await connectionOf('plain');
      expect((await remove(removed.pluginConnectionID)).response.status).toBe(200);

      for (const id of ['0b5e1d46-8c1f-4e3a-9b7d-2f0a6c1e7b11', foreign.pluginConnectionID, removed.pluginConnectionID]) {
        const response = await remove(id);
        expect(response.response.status).toBe(404);
        expect(singleError(response.error)).toEqual({
          statusCode: 404,
          error: 'PluginConnectionNotFoundError',
          error_code: 1054,
          message: 'Plugin connection not found.',
        });
      }
      expect(await statusOf(foreign.pluginConnectionID)).toBe('live');
    });
  });

  describe('each kind', () => {
    it('removes a plain connection, and its token stops working at once', async () => {
      const connection = await connectionOf('plain');
      expect(await tokenWorks(connection)).toBe(true); // cached now

      const response = await remove(connection.pluginConnectionID);
      expect({ status: response.response.status, body: response.data }).toMatchObject({ status: 200, body: { data: { deleted: true } } });
      expect(await statusOf(connection.pluginConnectionID)).toBe('removed');
      expect(await tokenWorks(connection)).toBe(false);
    });

    it('leaves exactly one pluginConnection.removed event', async () => {
      const plugin = await platform.fixtures.plugin({ name: 'Pesquisa de satisfação' });
      const connection = await platform.fixtures.connection(tenantID, plugin.pluginID);
      expect((await remove(connection.pluginConnectionID)).response.status).toBe(200);
      expect(await connectionEvents(connection.pluginConnectionID)).toEqual([
        {
          type: 'pluginConnection.removed',
          version: 1,
          orderingKey: `pluginConnection:${connection.pluginConnectionID}`,
          data: { pluginConnectionID: connection.pluginConnectionID, pluginID: plugin.pluginID, pluginName: 'Pesquisa de satisfação' },
          emittedBy: 'core-tenants',
        },
      ]);
      expect((await remove(connection.pluginConnectionID)).response.status).toBe(404);
      expect(await connectionEvents(connection.pluginConnectionID)).toHaveLength(1);
    });

    it('keeps the connection live, and leaves no event, when the removal cannot commit', async () => {
      const connection = await connectionOf('plain');
      const response = await withTableMissing(platform.dataSource, 'webhook_events', () => remove(connection.pluginConnectionID));
      expect(response.response.status).toBe(500);
      expect(await statusOf(connection.pluginConnectionID)).toBe('live');
      expect(await tokenWorks(connection)).toBe(true);
      expect(await connectionEvents(connection.pluginConnectionID)).toEqual([]);
    });

    it('deletes a hosted connection\'s VM first, then removes the connection', async () => {
      const connection = await connectionOf('hosted');
      const response = await remove(connection.pluginConnectionID);
      expect(response.response.status).toBe(200);
      expect(platform.vms.vms.has(connection.vmID!)).toBe(false);
      expect(platform.vms.callsTo('DELETE', `/vms/${connection.vmID}`)).toHaveLength(1);
      expect(await tokenWorks(connection)).toBe(false);
    });

    it('counts a VM already gone at the provider as deleted', async () => {
      const connection = await connectionOf('hosted');
      platform.vms.vms.delete(connection.vmID!);
      expect((await remove(connection.pluginConnectionID)).response.status).toBe(200);
      expect(await statusOf(connection.pluginConnectionID)).toBe('removed');
    });

    it('keeps a hosted connection live, token working, when the VM provider fails: 502 5002', async () => {
      const connection = await connectionOf('hosted');
      platform.vms.failWithStatus = 500;
      const response = await remove(connection.pluginConnectionID);
      expect(response.response.status).toBe(502);
      expect(singleError(response.error)).toEqual({
        statusCode: 502,
        error: 'BadGatewayError',
        error_code: 5002,
        message: 'External service returned an invalid response.',
      });
      expect(await statusOf(connection.pluginConnectionID)).toBe('live');
      expect(await tokenWorks(connection)).toBe(true);
    });

    it('answers 502 5002 when the VM provider is too slow, and keeps the connection', async () => {
      const connection = await connectionOf('hosted');
      // The provider answers only after core-tenants has given up on it (VM_PROVIDER_TIMEOUT_MS).
      const held = platform.vms.hold();
      const response = await remove(connection.pluginConnectionID).finally(() => held.release());
      expect(singleError(response.error).error_code).toBe(5002);
      expect(await statusOf(connection.pluginConnectionID)).toBe('live');
    });

    it('removes a paid connection and cancels its subscription item at the billing provider', async () => {
      const connection = await connectionOf('paid');
      expect((await remove(connection.pluginConnectionID)).response.status).toBe(200);
      await eventually(() => expect(platform.billing.successfulCancellations(connection.subscriptionItemID!)).toBe(1));
      expect(platform.billing.items.has(connection.subscriptionItemID!)).toBe(false);
      expect(await tokenWorks(connection)).toBe(false);
    });

    it('answers 200 while billing is down, then cancels exactly once when it comes back', async () => {
      const connection = await connectionOf('paid');
      platform.billing.failWithStatus = 503;
      expect((await remove(connection.pluginConnectionID)).response.status).toBe(200);
      expect(await tokenWorks(connection)).toBe(false);
      await eventually(() => expect(platform.billing.callsTo('DELETE', `/v1/subscription_items/${connection.subscriptionItemID}`).length).toBeGreaterThanOrEqual(2));
      expect(platform.billing.items.has(connection.subscriptionItemID!)).toBe(true);

      platform.billing.failWithStatus = undefined;
      await eventually(() => expect(platform.billing.successfulCancellations(connection.subscriptionItemID!)).toBe(1));
      // The provider answered; the worker records it right after.
      await eventually(async () => {
        const record = await cancellationOf(connection.subscriptionItemID!);
        expect(record.completed_at).not.toBeNull();
        expect(record.attempts).toBeGreaterThanOrEqual(3);
      });
      // Barrier: a later removal's cancellation is done by a later round of the worker, which would
      // have asked for this item again had it still been due.
      const later = await connectionOf('paid');
      expect((await remove(later.pluginConnectionID)).response.status).toBe(200);
      await eventually(async () => expect((await cancellationOf(later.subscriptionItemID!)).completed_at).not.toBeNull());
      const asked = platform.billing.calls.filter((call) => call.method === 'DELETE' && call.path === `/v1/subscription_items/${connection.subscriptionItemID}`);
      expect(asked.at(-1)?.status).toBe(200);
      expect(platform.billing.successfulCancellations(connection.subscriptionItemID!)).toBe(1);
    });

    it('counts an item already gone at the billing provider as canceled', async () => {
      const connection = await connectionOf('paid');
      platform.billing.items.delete(connection.subscriptionItemID!);
      expect((await remove(connection.pluginConnectionID)).response.status).toBe(200);
      await eventually(async () => {
        const [record] = await platform.dataSource.query('SELECT completed_at FROM billing_cancellations WHERE subscription_item_id = $1', [
          connection.subscriptionItemID,
        ]);
        expect(record.completed_at).not.toBeNull();
      });
    });
  });

  describe('concurrency and faults', () => {
    it('gives one 200 and one 404 1054 to two concurrent deletes of one connection', async () => {
      const connection = await connectionOf('hosted');
      platform.vms.latencyMs = 100;
      const answers = await Promise.all([remove(connection.pluginConnectionID), remove(connection.pluginConnectionID)]);
      expect(answers.map((answer) => answer.response.status).sort()).toEqual([200, 404]);
      expect(singleError(answers.find((answer) => answer.response.status === 404)!.error).error_code).toBe(1054);
      expect(platform.vms.callsTo('DELETE', `/vms/${connection.vmID}`)).toHaveLength(1);
    });

    it('still cancels when core-tenants restarts between the removal and the cancellation', async () => {
      const connection = await connectionOf('paid');
      platform.billing.failWithStatus = 503;
      expect((await remove(connection.pluginConnectionID)).response.status).toBe(200);
      await platform.apps['core-tenants']!.close();
      platform.billing.failWithStatus = undefined;
      expect(platform.billing.successfulCancellations(connection.subscriptionItemID!)).toBe(0);

      await platform.restartCoreTenants();
      await eventually(() => expect(platform.billing.successfulCancellations(connection.subscriptionItemID!)).toBe(1));
    });

    it('answers 504 5904 in the envelope when core-tenants does not answer, and leaves the connection whole', async () => {
      const connection = await connectionOf('paid');
      await platform.apps['core-tenants']!.close();
      try {
        const response = await remove(connection.pluginConnectionID);
        expect(response.response.status).toBe(504);
        expect(singleError(response.error)).toEqual({
          statusCode: 504,
          error: 'InternalServiceTimeoutError',
          error_code: 5904,
          message: 'An internal service did not answer in time. Try again.',
        });
        expect(await statusOf(connection.pluginConnectionID)).toBe('live');
        const cancellations = await platform.dataSource.query('SELECT 1 FROM billing_cancellations WHERE plugin_connection_id = $1', [
          connection.pluginConnectionID,
        ]);
        expect(cancellations).toHaveLength(0);
      } finally {
        await platform.restartCoreTenants();
      }
      expect((await remove(connection.pluginConnectionID)).response.status).toBe(200);
    });
  });

  it('revokes through the shared store, so a token cached by another app stops too', async () => {
    const connection = await connectionOf('plain');
    const servicesStore = platform.apps['services-api']!.get(CredentialStore);
    expect(await servicesStore.findLiveConnection(connection.pluginConnectionID)).toBeDefined();
    expect((await remove(connection.pluginConnectionID)).response.status).toBe(200);
    expect(await servicesStore.findLiveConnection(connection.pluginConnectionID)).toBeUndefined();
  });
});
