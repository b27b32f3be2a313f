import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { startPlatform, TestPlatform } from '../support/platform';

/**
 * The database refused the delete. The refusal of an ON DELETE RESTRICT key: PostgreSQL 15-17 report it as
 * foreign_key_violation (23503), PostgreSQL 18 as restrict_violation (23001).
 */
const FOREIGN_KEY_VIOLATION = expect.stringMatching(/^(23503|23001)$/);

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'deleted',
    (error: { code?: string; constraint?: string }) => ({ code: error.code, constraint: error.constraint }),
  );

/**
 * No delete drops pending work (docs/offboarding.md): a tenant's row cannot
 * go while its connections, help center or domains remain, and a purge of
 * removed connections keeps their open billing cancellations.
 */
describe('offboarding and pending work', () => {
  let platform: TestPlatform;
  let ownerToken: string;

  const newTenant = async () => {
    const tenantID = await platform.fixtures.tenant();
    const owner = await platform.fixtures.operator();
    await platform.fixtures.membership(tenantID, owner.operatorID, 'owner');
    ownerToken = await platform.tokenFor(owner.operatorID);
    return tenantID;
  };
  const deleteTenant = (tenantID: string) => refusal(platform.dataSource.query('DELETE FROM tenants WHERE id = $1', [tenantID]));

  beforeAll(async () => {
    platform = await startPlatform({ apps: ['core-tenants', 'services-api'] });
  });
  afterAll(() => platform.close());

  it('refuses to delete a tenant with a live connection, and keeps the connection', async () => {
    const tenantID = await newTenant();
    const plugin = await platform.fixtures.plugin({ kind: 'paid' });
    const installed = await platform.api.services.POST('/v1/tenants/{tenantID}/plugins/connections', {
      params: { path: { tenantID } },
      headers: { authorization: `Bearer ${ownerToken}` },
      body: { pluginID: plugin.pluginID },
    });
    expect(installed.response.status).toBe(201);

    expect(await deleteTenant(tenantID)).toEqual({ code: FOREIGN_KEY_VIOLATION, constraint: 'plugin_connections_tenant_id_fkey' });
    const [row] = await platform.dataSource.query('SELECT status FROM plugin_connections WHERE id = $1', [installed.data!.data.pluginConnectionID]);
    expect(row.status).toBe('live');
  });

  it('refuses to delete a tenant with a help center, and a help center with domains', async () => {
    const tenantID = await newTenant();
    const [helpCenter] = await platform.dataSource.query('INSERT INTO help_centers (tenant_id) VALUES ($1) RETURNING id', [tenantID]);
    await platform.dataSource.query('INSERT INTO helpdesk_domains (tenant_id, help_center_id, hostname) VALUES ($1, $2, $3)', [
      tenantID,
      helpCenter.id,
      `ajuda-${tenantID.slice(0, 8)}.lojadamaria.com.br`,
    ]);

    expect(await refusal(platform.dataSource.query('DELETE FROM help_centers WHERE id = $1', [helpCenter.id]))).toEqual({
      code: FOREIGN_KEY_VIOLATION,
      constraint: 'helpdesk_domains_help_center_id_fkey',
    });
    expect(await deleteTenant(tenantID)).toEqual({ code: FOREIGN_KEY_VIOLATION, constraint: 'help_centers_tenant_id_fkey' });
    const [domains] = await platform.dataSource.query('SELECT count(*)::int AS n FROM helpdesk_domains WHERE help_center_id = $1', [helpCenter.id]);
    expect(domains.n).toBe(1);
  });

  it('keeps an open cancellation when removed connections are purged, and the item is then canceled', async () => {
    const tenantID = await newTenant();
    const plugin = await platform.fixtures.plugin({ kind: 'paid' });
    const itemID = `si_offboarding_${plugin.pluginID.slice(0, 8)}`;
    platform.billing.addItem(itemID);
    const connection = await platform.fixtures.connection(tenantID, plugin.pluginID, { kind: 'paid', subscriptionItemID: itemID });
    // The provider is down: the cancellation stays open.
    platform.billing.failWithStatus = 503;
    try {
      const removed = await platform.api.services.DELETE('/v1/tenants/{tenantID}/plugins/connections/{pluginConnectionID}', {
        params: { path: { tenantID, pluginConnectionID: connection.pluginConnectionID } },
        headers: { authorization: `Bearer ${ownerToken}` },
      });
      expect(removed.response.status).toBe(200);

      // A retention purge deletes the removed connection's row.
      await platform.dataSource.query(`DELETE FROM plugin_connections WHERE id = $1 AND status = 'removed'`, [connection.pluginConnectionID]);
      const [open] = await platform.dataSource.query('SELECT completed_at FROM billing_cancellations WHERE subscription_item_id = $1', [itemID]);
      expect(open).toEqual({ completed_at: null });
    } finally {
      platform.billing.failWithStatus = undefined;
    }

    await eventually(() => expect(platform.billing.successfulCancellations(itemID)).toBe(1));
    await eventually(async () => {
      const [done] = await platform.dataSource.query('SELECT completed_at FROM billing_cancellations WHERE subscription_item_id = $1', [itemID]);
      expect(done.completed_at).not.toBeNull();
    });
  });
});
