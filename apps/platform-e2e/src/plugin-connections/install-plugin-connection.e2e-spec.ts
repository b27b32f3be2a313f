import { singleError, WebhookEventFixtures, withTableMissing } from '@platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';
import { eventually } from '../support/eventually';
import { describeStandardRefusals } from '../support/standard-refusals';

/** POST /v1/tenants/:tenantID/plugins/connections: installing a plugin, and the install-then-delete round trip. */
describe('installing plugins', () => {
  let platform: TestPlatform;
  let tenantID: string;
  let ownerToken: string;
  let memberToken: string;

  const install = (pluginID: unknown, token = ownerToken, tenant = tenantID) =>
    platform.api.services.POST('/v1/tenants/{tenantID}/plugins/connections', {
      params: { path: { tenantID: tenant } },
      headers: { authorization: `Bearer ${token}` },
      body: { pluginID } as never,
    });
  const remove = (pluginConnectionID: string) =>
    platform.api.services.DELETE('/v1/tenants/{tenantID}/plugins/connections/{pluginConnectionID}', {
      params: { path: { tenantID, pluginConnectionID } },
      headers: { authorization: `Bearer ${ownerToken}` },
    });
  const readTenant = (authorization: string) => platform.api.core.GET('/v1/tenants/{tenantID}', { params: { path: { tenantID } }, headers: { authorization } });
  const connectionAuthorization = (id: string, token: string) => `PluginConnection ${Buffer.from(`${id}:${token}`).toString('base64')}`;
  /** The tenant's webhook events about connections of `pluginID`, oldest first. */
  const connectionEvents = async (pluginID: string) =>
    (await new WebhookEventFixtures(platform.dataSource).eventsOf(tenantID)).filter((event) => event.data.pluginID === pluginID);
  const liveConnections = async (pluginID: string) =>
    (await platform.dataSource.query(`SELECT * FROM plugin_connections WHERE plugin_id = $1 AND status = 'live'`, [pluginID])) as Record<string, unknown>[];

  beforeAll(async () => {
    platform = await startPlatform({ apps: ['core-tenants', 'services-api'] });
    tenantID = await platform.fixtures.tenant();
    const owner = await platform.fixtures.operator();
    const member = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, owner.operatorID, 'owner');
    await platform.fixtures.membership(tenantID, member.operatorID, 'member');
    ownerToken = await platform.tokenFor(owner.operatorID);
    memberToken = await platform.tokenFor(member.operatorID);
  });
  afterAll(() => platform.close());
  beforeEach(() => {
    platform.billing.failWithStatus = undefined;
    platform.vms.failWithStatus = undefined;
  });

  it.each(['plain', 'paid', 'hosted'] as const)('installs a %s plugin, whose token then works, and deletes it', async (kind) => {
    const plugin = await platform.fixtures.plugin({ kind });
    const response = await install(plugin.pluginID);
    expect(response.response.status).toBe(201);
    const installed = response.data!.data;
    expect(installed).toMatchObject({ pluginID: plugin.pluginID, kind });
    expect(installed.pluginConnectionToken).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const [row] = await liveConnections(plugin.pluginID);
    expect(row.token_hash).not.toContain(installed.pluginConnectionToken);
    if (kind === 'paid') expect(platform.billing.items.has(row.subscription_item_id as string)).toBe(true);
    if (kind === 'hosted') expect(platform.vms.vms.has(row.vm_id as string)).toBe(true);

    const authorization = connectionAuthorization(installed.pluginConnectionID, installed.pluginConnectionToken);
    expect((await readTenant(authorization)).response.status).toBe(200);

    expect((await remove(installed.pluginConnectionID)).response.status).toBe(200);
    expect((await readTenant(authorization)).response.status).toBe(401);
    if (kind === 'paid') await eventually(() => expect(platform.billing.items.has(row.subscription_item_id as string)).toBe(false));
    if (kind === 'hosted') expect(platform.vms.vms.has(row.vm_id as string)).toBe(false);
  });

  /** The plugin every standard refusal tries to install: none may install it. */
  let refusedPlugin: ReturnType<TestPlatform['fixtures']['plugin']> | undefined;
  const plugin = () => (refusedPlugin ??= platform.fixtures.plugin());
  describeStandardRefusals({
    method: 'POST',
    path: '/v1/tenants/{tenantID}/plugins/connections',
    client: () => platform.api.services,
    tenantID: () => tenantID,
    body: async () => ({ pluginID: (await plugin()).pluginID }),
    valid: () => `Bearer ${ownerToken}`,
    wrongRole: () => `Bearer ${memberToken}`,
    written: async () => liveConnections((await plugin()).pluginID),
  });

  it('is 400 1002 for a missing, malformed or unknown pluginID', async () => {
    const missing = await install(undefined);
    expect(singleError(missing.error).fields).toEqual([{ field: 'pluginID', received: 'undefined', allowed: 'uuid' }]);
    const unknown = await install('4d3c2b1a-0f9e-4d8c-b7a6-5f4e3d2c1b0a');
    expect(unknown.response.status).toBe(400);
    expect(singleError(unknown.error).fields).toEqual([
      { field: 'pluginID', received: '4d3c2b1a-0f9e-4d8c-b7a6-5f4e3d2c1b0a', allowed: 'the id of an existing plugin' },
    ]);
  });

  it('is 409 1950 for a plugin already installed, even when two installs race', async () => {
    const plugin = await platform.fixtures.plugin();
    const answers = await Promise.all([install(plugin.pluginID), install(plugin.pluginID)]);
    expect(answers.map((answer) => answer.response.status).sort()).toEqual([201, 409]);
    expect(singleError(answers.find((answer) => answer.response.status === 409)!.error)).toEqual({
      statusCode: 409,
      error: 'PluginAlreadyInstalledError',
      error_code: 1950,
      message: 'This plugin is already installed on this tenant.',
    });
    expect(await liveConnections(plugin.pluginID)).toHaveLength(1);
  });

  it('leaves exactly one pluginConnection.installed event, then one pluginConnection.removed', async () => {
    const plugin = await platform.fixtures.plugin({ name: 'Agenda de retornos' });
    const installed = (await install(plugin.pluginID)).data!.data;
    const event = (type: string) => ({
      type,
      version: 1,
      orderingKey: `pluginConnection:${installed.pluginConnectionID}`,
      data: { pluginConnectionID: installed.pluginConnectionID, pluginID: plugin.pluginID, pluginName: 'Agenda de retornos' },
      emittedBy: 'core-tenants',
    });
    expect(await connectionEvents(plugin.pluginID)).toEqual([event('pluginConnection.installed')]);
    expect((await remove(installed.pluginConnectionID)).response.status).toBe(200);
    expect(await connectionEvents(plugin.pluginID)).toEqual([event('pluginConnection.installed'), event('pluginConnection.removed')]);
  });

  it('leaves no connection and no event when the install cannot commit', async () => {
    const plugin = await platform.fixtures.plugin();
    const response = await withTableMissing(platform.dataSource, 'webhook_events', () => install(plugin.pluginID));
    expect([response.response.status, singleError(response.error).error_code]).toEqual([500, 5999]);
    expect(await liveConnections(plugin.pluginID)).toHaveLength(0);
    expect(await connectionEvents(plugin.pluginID)).toEqual([]);
  });

  it('leaves no connection when the billing provider fails: 502 5002', async () => {
    const plugin = await platform.fixtures.plugin({ kind: 'paid' });
    platform.billing.failWithStatus = 500;
    const response = await install(plugin.pluginID);
    expect(response.response.status).toBe(502);
    expect(singleError(response.error).error_code).toBe(5002);
    expect(await liveConnections(plugin.pluginID)).toHaveLength(0);
  });

  it('leaves no connection when the VM provider fails: 502 5002', async () => {
    const plugin = await platform.fixtures.plugin({ kind: 'hosted' });
    platform.vms.failWithStatus = 503;
    const response = await install(plugin.pluginID);
    expect(singleError(response.error).error_code).toBe(5002);
    expect(await liveConnections(plugin.pluginID)).toHaveLength(0);
  });

  it('creates one subscription item when an install the billing provider answered too late is retried under the same Idempotency-Key', async () => {
    const plugin = await platform.fixtures.plugin({ kind: 'paid' });
    const installWithKey = () =>
      platform.api.services.POST('/v1/tenants/{tenantID}/plugins/connections', {
        params: { path: { tenantID } },
        headers: { authorization: `Bearer ${ownerToken}`, 'idempotency-key': `install-${plugin.pluginID}` },
        body: { pluginID: plugin.pluginID },
      });
    const createdBefore = new Set(platform.billing.created.keys());
    const callsBefore = platform.billing.calls.length;
    // Held past BILLING_TIMEOUT_MS: the client gets 502 5002, yet the provider makes the item afterwards.
    const held = platform.billing.hold();
    const first = await installWithKey().finally(() => held.release());
    expect([first.response.status, singleError(first.error).error_code]).toEqual([502, 5002]);

    const retried = await installWithKey();
    expect(retried.response.status).toBe(201);
    await eventually(() => expect([...platform.billing.created.keys()].filter((id) => !createdBefore.has(id))).toHaveLength(1));
    const [row] = await liveConnections(plugin.pluginID);
    expect(row.id).toBe(retried.data!.data.pluginConnectionID);
    const [item] = [...platform.billing.created.keys()].filter((id) => !createdBefore.has(id));
    expect(row.subscription_item_id).toBe(item);
    // Both POSTs to the provider carried one key, derived from the install's intent.
    const keys = () =>
      platform.billing.calls
        .slice(callsBefore)
        .filter((call) => call.method === 'POST')
        .map((call) => call.headers['idempotency-key']);
    await eventually(() => expect(keys()).toEqual([`install-${row.id}`, `install-${row.id}`]));
    expect(platform.billing.successfulCancellations(item)).toBe(0);
  });

  it('is 422 1951 for a paid plugin on a tenant without a billing subscription', async () => {
    const unbilled = await platform.fixtures.tenant();
    await platform.dataSource.query('UPDATE tenants SET billing_subscription_id = NULL WHERE id = $1', [unbilled]);
    const owner = await platform.fixtures.operator();
    await platform.fixtures.membership(unbilled, owner.operatorID, 'owner');
    const plugin = await platform.fixtures.plugin({ kind: 'paid' });
    const response = await install(plugin.pluginID, await platform.tokenFor(owner.operatorID), unbilled);
    expect(response.response.status).toBe(422);
    expect(singleError(response.error).error_code).toBe(1951);
    expect(platform.billing.callsTo('POST', '/v1/subscription_items').filter((call) => call.body.includes(plugin.pluginID))).toHaveLength(0);
  });
});
