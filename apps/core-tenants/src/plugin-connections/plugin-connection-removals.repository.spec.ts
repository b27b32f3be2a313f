import { trustedTenantScope } from '@platform/auth';
import { createTestDataSource, FixtureBuilder } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PluginConnectionRemovalsRepository } from './plugin-connection-removals.repository';

/**
 * The removal's SQL against PostgreSQL: the claim of a live connection of
 * the tenant (what it answers, why it refuses, the lease), holding and
 * releasing it, and the completion that removes the connection and records
 * a paid one's cancellation in one statement, once.
 */
describe('PluginConnectionRemovalsRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let removals: PluginConnectionRemovalsRepository;
  let fixtures: FixtureBuilder;
  let tenantID: string;

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    removals = new PluginConnectionRemovalsRepository(dataSource);
    fixtures = new FixtureBuilder(dataSource);
  });
  afterAll(() => close?.());
  beforeEach(async () => {
    tenantID = await fixtures.tenant();
  });

  const scope = (tenant = tenantID) => trustedTenantScope(tenant);
  const paidConnection = async () => {
    const plugin = await fixtures.plugin({ name: 'Faturas', kind: 'paid', billingPriceID: 'price_1' });
    const subscriptionItemID = `si_${randomUUID()}`;
    const { pluginConnectionID } = await fixtures.connection(tenantID, plugin.pluginID, { kind: 'paid', subscriptionItemID });
    return { pluginID: plugin.pluginID, pluginConnectionID, subscriptionItemID };
  };
  const lapse = (pluginConnectionID: string) =>
    dataSource.query(`UPDATE plugin_connections SET removal_claimed_until = now() - interval '1 second' WHERE id = $1`, [pluginConnectionID]);

  it('claims a live connection of the tenant, answering what removing it needs; refuses one claimed or not live here', async () => {
    const { pluginID, pluginConnectionID } = await paidConnection();
    const claim = randomUUID();

    expect(await removals.claim(scope(await fixtures.tenant()), pluginConnectionID, randomUUID(), 60_000)).toBe('not-live');
    expect(await removals.claim(scope(), randomUUID(), randomUUID(), 60_000)).toBe('not-live');
    expect(await removals.claim(scope(), pluginConnectionID, claim, 60_000)).toEqual({ pluginID, pluginName: 'Faturas', kind: 'paid', vmID: null });
    expect(await removals.claim(scope(), pluginConnectionID, randomUUID(), 60_000)).toBe('claimed-elsewhere');
    expect(await removals.holds(pluginConnectionID, claim)).toBe(true);
  });

  it('lets another removal take a lapsed claim over, and gives a released claim back', async () => {
    const { pluginConnectionID } = await paidConnection();
    const first = randomUUID();
    const second = randomUUID();
    await removals.claim(scope(), pluginConnectionID, first, 60_000);
    await lapse(pluginConnectionID);

    expect(await removals.claim(scope(), pluginConnectionID, second, 60_000)).toMatchObject({ kind: 'paid' });
    expect(await removals.holds(pluginConnectionID, first)).toBe(false);
    await removals.release(pluginConnectionID, first);
    expect(await removals.holds(pluginConnectionID, second)).toBe(true);
    await removals.release(pluginConnectionID, second);
    expect(await removals.holds(pluginConnectionID, second)).toBe(false);
    expect(await removals.claim(scope(), pluginConnectionID, randomUUID(), 60_000)).toMatchObject({ kind: 'paid' });
  });

  it("removes the connection and records a paid one's cancellation in one statement, once; never another tenant's", async () => {
    const { pluginConnectionID, subscriptionItemID } = await paidConnection();
    const headers = { 'x-request-id': 'req-1' };

    expect(await removals.complete(scope(await fixtures.tenant()), pluginConnectionID, headers)).toBe(false);
    expect(await removals.complete(scope(), pluginConnectionID, headers)).toBe(true);
    expect(await removals.complete(scope(), pluginConnectionID, headers)).toBe(false);
    const [connection] = (await dataSource.query('SELECT status, removal_claim_id AS "claimID" FROM plugin_connections WHERE id = $1', [pluginConnectionID])) as object[];
    expect(connection).toEqual({ status: 'removed', claimID: null });
    const cancellations = (await dataSource.query('SELECT plugin_connection_id AS id, headers FROM billing_cancellations WHERE subscription_item_id = $1', [subscriptionItemID])) as object[];
    expect(cancellations).toEqual([{ id: pluginConnectionID, headers }]);
    expect(await removals.claim(scope(), pluginConnectionID, randomUUID(), 60_000)).toBe('not-live');
  });

  it('records no cancellation for a connection without a subscription item', async () => {
    const plugin = await fixtures.plugin({ kind: 'plain' });
    const { pluginConnectionID } = await fixtures.connection(tenantID, plugin.pluginID);

    expect(await removals.complete(scope(), pluginConnectionID, null)).toBe(true);
    expect(await dataSource.query('SELECT id FROM billing_cancellations WHERE plugin_connection_id = $1', [pluginConnectionID])).toEqual([]);
  });
});
