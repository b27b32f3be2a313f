import { trustedTenantScope } from '@platform/auth';
import { createTestDataSource, FixtureBuilder } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NewPluginConnection, PluginConnectionInstallsRepository } from './plugin-connection-installs.repository';

/**
 * The install's SQL against PostgreSQL: the plugin and the tenant in one
 * read (whether it is installed already, the tenant's subscription), and the
 * connection's insert, where the unique live connection per tenant and
 * plugin decides between racing installs.
 */
describe('PluginConnectionInstallsRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let installs: PluginConnectionInstallsRepository;
  let fixtures: FixtureBuilder;
  let tenantID: string;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(4));
    installs = new PluginConnectionInstallsRepository(dataSource);
    fixtures = new FixtureBuilder(dataSource);
  });
  afterAll(() => close?.());
  beforeEach(async () => {
    tenantID = await fixtures.tenant(undefined, { billingSubscriptionID: `sub_${randomUUID()}` });
  });

  const scope = (tenant = tenantID) => trustedTenantScope(tenant);
  const connection = (pluginID: string, overrides: Partial<NewPluginConnection> = {}): NewPluginConnection => ({
    pluginConnectionID: randomUUID(),
    pluginID,
    kind: 'paid',
    tokenHash: `hash-${randomUUID()}`,
    subscriptionItemID: 'si_1',
    vmID: null,
    ...overrides,
  });

  it('reads the plugin and the tenant together, and whether the plugin is live on the tenant', async () => {
    const { pluginID } = await fixtures.plugin({ name: 'Faturas', kind: 'paid', billingPriceID: 'price_1' });
    const [tenant] = (await dataSource.query('SELECT billing_subscription_id AS subscription FROM tenants WHERE id = $1', [tenantID])) as { subscription: string }[];

    expect(await installs.findTarget(scope(), pluginID)).toEqual({ pluginName: 'Faturas', kind: 'paid', price: 'price_1', image: null, subscription: tenant.subscription, installed: false });
    await installs.insert(scope(), connection(pluginID));
    expect(await installs.findTarget(scope(), pluginID)).toMatchObject({ installed: true });
    expect(await installs.findTarget(scope(await fixtures.tenant()), pluginID)).toMatchObject({ installed: false });
    expect(await installs.findTarget(scope(), randomUUID())).toBeUndefined();
    expect(await installs.findTarget(scope(randomUUID()), pluginID)).toBeUndefined();
  });

  it('lets one of racing installs through; a removed connection makes room for a new one', async () => {
    const { pluginID } = await fixtures.plugin({ kind: 'paid', billingPriceID: 'price_1' });
    const raced = await Promise.all([1, 2, 3].map(() => installs.insert(scope(), connection(pluginID))));
    expect(raced.sort()).toEqual(['already-installed', 'already-installed', 'inserted']);

    await dataSource.query(`UPDATE plugin_connections SET status = 'removed', removed_at = now() WHERE tenant_id = $1 AND plugin_id = $2`, [tenantID, pluginID]);
    expect(await installs.insert(scope(), connection(pluginID))).toBe('inserted');
    const [stored] = (await dataSource.query(
      `SELECT kind, subscription_item_id AS "subscriptionItemID", vm_id AS "vmID", status FROM plugin_connections WHERE tenant_id = $1 AND status = 'live'`,
      [tenantID],
    )) as object[];
    expect(stored).toEqual({ kind: 'paid', subscriptionItemID: 'si_1', vmID: null, status: 'live' });
  });
});
